(function () {
  'use strict';
  function cellValue(row, i, type) {
    var c = row.cells[i];
    var v = c.getAttribute('data-sort');
    if (v === null) v = c.textContent;
    return type === 'num' ? parseFloat(v) || 0 : v.toLowerCase();
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('th[data-type]').forEach(function (th) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var i = th.cellIndex, type = th.getAttribute('data-type');
        var dir = th.getAttribute('data-dir') === 'asc' ? -1 : 1;
        th.setAttribute('data-dir', dir === 1 ? 'asc' : 'desc');
        rows.sort(function (a, b) {
          var x = cellValue(a, i, type), y = cellValue(b, i, type);
          return x < y ? -dir : x > y ? dir : 0;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  var filter = document.getElementById('filter');
  if (filter) {
    filter.addEventListener('input', function () {
      var q = filter.value.toLowerCase();
      document.querySelectorAll('[data-search]').forEach(function (el) {
        el.classList.toggle('hidden', q !== '' && el.getAttribute('data-search').indexOf(q) < 0);
      });
    });
  }
  function openAll(open) {
    document.querySelectorAll('details').forEach(function (d) { d.open = open; });
  }
  var expand = document.getElementById('expand-all');
  var collapse = document.getElementById('collapse-all');
  if (expand) expand.addEventListener('click', function () { openAll(true); });
  if (collapse) collapse.addEventListener('click', function () { openAll(false); });
  window.addEventListener('beforeprint', function () { openAll(true); });
})();
