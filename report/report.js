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
        allRows();
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
  // Past the first rows and package bodies, the page holds markup as the
  // unparsed text of <noscript> elements: parsed when needed.
  function parse(raw) {
    var t = document.createElement('template');
    t.innerHTML = raw.textContent;
    return t.content;
  }
  var more = document.getElementById('more-rows');
  var showAll = document.getElementById('show-all-rows');
  function allRows() {
    if (!more) return;
    var body = document.querySelector('#package-table tbody');
    parse(more).querySelectorAll('tbody > tr').forEach(function (r) { body.appendChild(r); });
    more.remove();
    more = null;
    if (showAll) showAll.parentNode.hidden = true;
  }
  function expandBody(d) {
    var raw = d.querySelector(':scope > noscript');
    if (raw) raw.replaceWith(parse(raw));
  }
  document.addEventListener('toggle', function (e) {
    if (e.target.open) expandBody(e.target);
  }, true);
  if (showAll) {
    showAll.hidden = false;
    showAll.addEventListener('click', allRows);
  }
  var filter = document.getElementById('filter');
  if (filter) {
    filter.addEventListener('input', function () {
      allRows();
      var q = filter.value.toLowerCase();
      document.querySelectorAll('[data-search]').forEach(function (el) {
        el.classList.toggle('hidden', q !== '' && el.getAttribute('data-search').indexOf(q) < 0);
      });
    });
  }
  function openAll(open) {
    document.querySelectorAll('details').forEach(function (d) {
      if (open) expandBody(d);
      d.open = open;
    });
  }
  var expand = document.getElementById('expand-all');
  var collapse = document.getElementById('collapse-all');
  if (expand) expand.addEventListener('click', function () { openAll(true); });
  if (collapse) collapse.addEventListener('click', function () { openAll(false); });
  window.addEventListener('beforeprint', function () { allRows(); openAll(true); });
})();
