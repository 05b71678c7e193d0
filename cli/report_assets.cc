// The style sheet and script inlined into every report page. Both are
// constants of this program: nothing from the input reaches them.
#include "cli/report_page.h"

namespace zs::tools {

std::string_view ReportCss() {
  return R"css(
:root{--ok:#2e7d32;--bad:#c62828;--run:#ef6c00;--off:#757575;--json:#1f77b4;--compact:#2ca02c;--line:#ddd}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;color:#fff;padding:14px 24px}
header h1{margin:0 0 4px;font-size:22px}
header .meta{margin:0;color:#cfd8dc;font-size:13px}
nav a{color:#b3e5fc;margin-right:14px;text-decoration:none}
main{padding:8px 24px 40px;max-width:1400px}
section{margin-top:18px}
h2{border-bottom:2px solid #263238;padding-bottom:3px}
table{border-collapse:collapse;background:#fff;margin:6px 0}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eceff1}
th[data-type]{cursor:pointer;user-select:none}
th[data-type]::after{content:" \2195";color:#90a4ae}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.warnings li{color:var(--bad)}
.notes li{color:var(--off)}
.ok-note{color:var(--ok)}
.outcome-Succeeded{color:var(--ok)}
.outcome-Failed{color:var(--bad);font-weight:600}
.outcome-InProgress{color:var(--run);font-weight:600}
.outcome-Cancelled,.outcome-Unknown{color:var(--off)}
td.cell-Succeeded{background:#e8f5e9}
td.cell-Failed{background:#ffebee}
td.cell-InProgress{background:#fff3e0}
td.cell-Unknown,td.cell-Cancelled{background:#f5f5f5}
.bar{position:relative;width:220px;height:18px;background:#f1f1f1;border:1px solid #ccc}
.bar span{position:absolute;left:0;height:7px;opacity:.45}
.bar span.json{top:1px;background:var(--json)}
.bar span.compact{top:9px;background:var(--compact)}
.bar span.in-use{opacity:1}
.bar i{position:absolute;left:90%;top:-2px;bottom:-2px;border-left:2px dashed var(--bad)}
.legend span{display:inline-block;width:14px;height:8px;margin:0 4px 0 10px}
.tools{margin:8px 0}
ol.closest a{display:inline-block;width:24em;overflow:hidden;text-overflow:ellipsis;vertical-align:middle}
ol.closest .pct{display:inline-block;width:5em;text-align:right;margin-right:10px;font-variant-numeric:tabular-nums}
ol.closest .bar{display:inline-block;vertical-align:middle}
time[title],td[title]{cursor:help}
.tools input{padding:4px 8px;width:320px}
details.package{background:#fff;border:1px solid var(--line);margin:6px 0;padding:4px 10px}
details.package summary{cursor:pointer;font-weight:600}
details.package summary .badge{font-weight:400;margin-left:8px}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:1px 14px;margin:6px 0}
dl.facts dt{color:#555}
dl.facts dd{margin:0}
ol.timeline{list-style:none;padding-left:0;border-left:3px solid #b0bec5;margin-left:6px}
ol.timeline li{padding:2px 0 2px 12px;position:relative}
ol.timeline li::before{content:"";position:absolute;left:-7px;top:8px;width:10px;height:10px;border-radius:50%;background:currentColor}
ol.timeline li.component{margin-left:22px;font-size:13px}
ol.timeline li.observed::before{background:#fff;border:2px solid currentColor;width:6px;height:6px}
.tag{border:1px solid #90a4ae;color:#455a64;border-radius:3px;padding:0 4px;margin-left:6px;font-size:12px}
.legend .dot{width:10px;height:10px;border-radius:50%;vertical-align:middle;background:#607d8b}
.legend .dot.observed{background:#fff;border:2px solid #607d8b;width:6px;height:6px}
.legend .tag{display:inline;width:auto;height:auto;margin:0 4px 0 0}
ol.timeline time{font-family:ui-monospace,Menlo,Consolas,monospace;color:#444;margin-right:8px}
.change{background:#fff59d;color:#333;padding:0 4px;border-radius:3px;margin-left:6px;font-size:12px}
.digest{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;color:#555}
figure{background:#fff;border:1px solid var(--line);margin:8px 0;padding:6px;display:inline-block;max-width:100%}
figure svg{max-width:100%;height:auto}
.init-states{display:flex;flex-wrap:wrap;gap:10px}
.init-state{background:#fff;border:1px solid var(--line);padding:4px 12px;flex:1 1 380px;font-size:13px}
.init-state h3{font-size:14px;margin:6px 0}
/* A fixed layout and skipped rendering of what is off screen keep a page of
   a thousand packages quick to open. */
#package-table{table-layout:fixed;width:100%;max-width:1250px}
#package-table td{overflow:hidden;text-overflow:ellipsis}
#package-table th:nth-child(1){width:20%}#package-table th:nth-child(2){width:9%}
#package-table th:nth-child(3){width:7%}#package-table th:nth-child(4){width:9%}
#package-table th:nth-child(5){width:6%}#package-table th:nth-child(6){width:240px}
#package-table th:nth-child(8){width:6%}
details.package{content-visibility:auto;contain-intrinsic-size:auto 34px}
.hidden{display:none}
@media print{
  header{background:none;color:#000}header .meta,nav a{color:#000}nav,.tools{display:none}
  body{background:#fff}details.package{break-inside:avoid}
}
)css";
}

std::string_view ReportScript() {
  return R"js(
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
)js";
}

}  // namespace zs::tools
