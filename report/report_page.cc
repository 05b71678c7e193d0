#include "report/report_page.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "kube/compact_figure.h"
#include "kube/secret.h"
#include "model/timestamp.h"
#include "report/html_writer.h"
#include "report/svg_plot.h"

namespace zs::tools {
namespace {

using json::Value;

// The package table renders this many rows; the rest wait in a <template>.
constexpr std::size_t kTableRows = 200;
// Past this many packages the overview adds the ones closest to the limit
// and the size distribution.
constexpr std::size_t kTopCount = 10;

std::string Percent(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%",
                static_cast<double>(bytes) * 100.0 / static_cast<double>(kSecretSizeLimit));
  return buf;
}

// A CSS width for `bytes` on the 1 MiB bar (capped at the bar's end).
std::string BarWidth(std::size_t bytes) {
  const double pct = std::min(100.0, static_cast<double>(bytes) * 100.0 /
                                         static_cast<double>(kSecretSizeLimit));
  char buf[48];
  std::snprintf(buf, sizeof buf, "width:%.2f%%", pct);
  return buf;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Outcomes name CSS classes: only known ones do, anything else is Unknown.
std::string_view OutcomeClass(std::string_view outcome) {
  for (std::string_view known : {"Succeeded", "Failed", "InProgress", "Cancelled"}) {
    if (outcome == known) return known;
  }
  return "Unknown";
}

std::string PackageAnchor(std::size_t i) { return "pkg-" + std::to_string(i + 1); }
std::string PackageLink(std::size_t i) {
  std::string link = "#";
  link += PackageAnchor(i);
  return link;
}

// The running version, and beside it a later attempt's that did not succeed:
// "1.2.0 (1.3.0 failed)".
std::string VersionText(const ReportPackage& p) {
  if (p.version_note.empty()) return p.version;
  return (p.version.empty() ? "-" : p.version) + " (" + p.version_note + ")";
}

std::string SearchText(const ReportPackage& p) {
  return Lower(p.name + " " + VersionText(p) + " " + p.secret_name + " " + p.latest + " " + p.source);
}

// An age with its exact time on hover: `<time title="T">age</time>`.
void Age(HtmlWriter& h, const std::string& age, const std::string& time, std::string_view suffix = "") {
  h.Open("time", {{"title", time}}).Text(age).Text(suffix).Close("time");
}

// A table cell of an age, its exact time on hover and sorting by it; "-"
// without a time.
void AgeCell(HtmlWriter& h, const std::string& age, const std::string& time) {
  if (time.empty()) {
    h.Raw("<td>-</td>");
  } else {
    h.Element("td", age, {{"title", time}, {"data-sort", time}});
  }
}

void Bar(HtmlWriter& h, const ReportPackage& p) {
  const std::string compact = p.compact_bytes      ? WithThousands(p.compact_bytes) + " B"
                              : p.compact_measured ? "n/a"
                                                   : "not measured";
  const std::string title = "JSON " + WithThousands(p.json_bytes) + " B, compact " + compact +
                            "; in use: " + p.codec + "; dashed line: 90% of 1 MiB";
  h.Open("div", {{"class", "bar"}, {"title", title}});
  h.Open("span", {{"class", p.codec == "json" ? "json in-use" : "json"}, {"style", BarWidth(p.json_bytes)}})
      .Close("span");
  if (p.compact_bytes) {
    h.Open("span", {{"class", p.codec == "compact" ? "compact in-use" : "compact"},
                    {"style", BarWidth(p.compact_bytes)}})
        .Close("span");
  }
  h.Raw("<i></i>").Close("div");
}

// One row of the package table: `i` is the package's place in the page.
void PackageRow(HtmlWriter& h, const ReportPackage& p, std::size_t i) {
  h.Open("tr", {{"data-search", SearchText(p)}});
  h.Raw("<td>").Open("a", {{"href", PackageLink(i)}}).Text(p.name).Close("a").Raw("</td>");
  h.Element("td", VersionText(p)).Element("td", p.codec);
  const std::string bytes = std::to_string(p.secret_bytes);
  h.Element("td", WithThousands(p.secret_bytes), {{"class", "num"}, {"data-sort", bytes}});
  h.Element("td", Percent(p.secret_bytes), {{"class", "num"}, {"data-sort", bytes}});
  h.Raw("<td>");
  Bar(h, p);
  h.Raw("</td>");
  h.Element("td", p.latest, {{"class", "outcome-" + std::string(OutcomeClass(p.latest_outcome))}});
  AgeCell(h, p.latest_age, p.latest_time);
  h.Element("td", std::to_string(p.events.size()), {{"class", "num"}});
  h.Close("tr");
}

constexpr std::string_view kTableHead =
    "<thead><tr><th data-type=\"text\">Package</th><th data-type=\"text\">Version</th>"
    "<th data-type=\"text\">Codec</th><th data-type=\"num\">Secret bytes</th>"
    "<th data-type=\"num\">Used</th><th>Size against 1 MiB</th>"
    "<th data-type=\"text\">Latest event</th><th data-type=\"text\">Age</th>"
    "<th data-type=\"num\">Events</th></tr></thead><tbody>";

// Past kTableRows rows the table stops: the rest follow in a second table
// inside <noscript>, which a browser without the script shows as it is and
// one with the script keeps as unparsed text (quick to load) until the
// script moves its rows into the table, when asked or when sorting or
// filtering needs them.
void MoreRowsNote(HtmlWriter& h, std::size_t total) {
  h.Raw("<p class=\"more-rows\">").Text("The " + std::to_string(kTableRows) +
                                        " packages closest to the limit first, of " +
                                        WithThousands(total) + ". ");
  h.Raw("<button type=\"button\" id=\"show-all-rows\" hidden>Show all rows</button></p>");
}

// The kTopCount packages closest to the limit, each with its bar.
void ClosestToLimit(HtmlWriter& h, const ReportData& d) {
  h.Raw("<h3 id=\"closest\">Closest to the 1 MiB limit</h3><ol class=\"closest\">");
  for (std::size_t i = 0; i < kTopCount && i < d.packages.size(); ++i) {
    const ReportPackage& p = d.packages[i];
    h.Raw("<li>").Open("a", {{"href", PackageLink(i)}}).Text(p.name).Close("a");
    h.Element("span", Percent(p.secret_bytes), {{"class", "pct"}});
    Bar(h, p);
    h.Raw("</li>");
  }
  h.Raw("</ol>");
}

// A histogram of the Secrets' sizes against the limit.
void SizeDistribution(HtmlWriter& h, const ReportData& d) {
  std::vector<double> kib;
  kib.reserve(d.packages.size());
  for (const ReportPackage& p : d.packages) kib.push_back(static_cast<double>(p.secret_bytes) / 1024);
  HistogramOptions o;
  o.title = "Package Secrets by size (" + WithThousands(d.packages.size()) + ")";
  o.x_label = "Secret size, KiB (bins of 32 KiB)";
  o.y_label = "packages";
  o.unit = "KiB";
  o.x_max = static_cast<double>(kSecretSizeLimit) / 1024;
  o.lines = {{o.x_max * 0.9, "90%"}, {o.x_max, "1 MiB limit"}};
  // The SVG is svg_plot's markup; its texts were escaped there.
  h.Raw("<h3 id=\"distribution\">Size distribution</h3><figure class=\"distribution\">");
  h.Raw(RenderHistogram(o, kib)).Raw("</figure>");
}

void Overview(HtmlWriter& h, const ReportData& d) {
  h.Raw("<section id=\"overview\"><h2>Overview</h2>");
  if (d.warnings.empty()) {
    h.Raw("<p class=\"ok-note\" id=\"warnings\">No warnings.</p>");
  } else {
    h.Raw("<h3 id=\"warnings\">Warnings (").Text(std::to_string(d.warnings.size())).Raw(")</h3>");
    h.Raw("<ul class=\"warnings\">");
    for (const ReportWarning& w : d.warnings) {
      h.Raw("<li>").Element("b", w.object).Raw(": ").Text(w.text).Raw("</li>");
    }
    h.Raw("</ul>");
  }
  if (!d.notes.empty()) {
    h.Raw("<ul class=\"notes\" id=\"notes\">");
    for (const std::string& n : d.notes) h.Raw("<li>").Text(n).Raw("</li>");
    h.Raw("</ul>");
  }
  h.Raw("<h3>Operations in progress</h3>");
  bool any = false;
  for (std::size_t i = 0; i < d.packages.size(); ++i) {
    const ReportPackage& p = d.packages[i];
    if (!p.in_progress_seconds) continue;
    if (!any) h.Raw("<ul class=\"in-progress\">");
    any = true;
    h.Raw("<li>").Open("a", {{"href", PackageLink(i)}}).Text(p.name).Close("a");
    h.Raw(": ").Text(p.latest + " for ");
    Age(h, FormatAge(*p.in_progress_seconds), p.latest_time);
    h.Raw("</li>");
  }
  h.Raw(any ? "</ul>" : "<p>None.</p>");

  if (d.packages.size() > kTopCount) {
    ClosestToLimit(h, d);
    SizeDistribution(h, d);
  }
  h.Raw("<h3>Package Secrets (").Text(std::to_string(d.packages.size())).Raw(")</h3>");
  h.Raw("<div class=\"tools\"><input type=\"search\" id=\"filter\" "
        "placeholder=\"Filter packages: name, version, event\" aria-label=\"Filter packages\"> "
        "<button type=\"button\" id=\"expand-all\">Expand all</button> "
        "<button type=\"button\" id=\"collapse-all\">Collapse all</button></div>");
  h.Raw("<p class=\"legend\">Bars against the 1 MiB limit:<span style=\"background:var(--json)\">"
        "</span>JSON<span style=\"background:var(--compact)\"></span>compact, ")
      .Text(kCompactFigureRule)
      .Raw(" (the codec in use is solid; the dashed line is 90%). Largest first; a column heading "
           "sorts by it.</p>");
  h.Raw("<table id=\"package-table\" class=\"sortable\">").Raw(kTableHead);
  for (std::size_t i = 0; i < d.packages.size(); ++i) {
    if (i == kTableRows) {
      h.Raw("</tbody></table>");
      MoreRowsNote(h, d.packages.size());
      h.Raw("<noscript id=\"more-rows\"><table class=\"sortable\">").Raw(kTableHead);
    }
    PackageRow(h, d.packages[i], i);
  }
  h.Raw(d.packages.size() > kTableRows ? "</tbody></table></noscript>" : "</tbody></table>");
  h.Raw("</section>");
}


void InitStates(HtmlWriter& h, const ReportData& d) {
  if (d.init_states.empty()) return;
  h.Raw("<section id=\"init-states\"><h2>Init state</h2><p>A summary: credentials, tokens and "
        "keys are never part of this report.</p><div class=\"init-states\">");
  for (const ReportInitState& s : d.init_states) {
    h.Raw("<div class=\"init-state\"><h3>").Text(s.source).Raw(" (");
    h.Text(WithThousands(s.secret_bytes)).Raw(" bytes)</h3><dl class=\"facts\">");
    for (const auto& [label, value] : s.fields) h.Element("dt", label).Element("dd", value);
    h.Raw("</dl></div>");
  }
  h.Raw("</div></section>");
}

void Components(HtmlWriter& h, const ReportPackage& p) {
  if (p.components.empty()) {
    h.Raw("<p>No deployed component.</p>");
    return;
  }
  h.Raw("<table class=\"matrix\"><thead><tr><th>Component</th><th>Last event</th><th>Outcome</th>"
        "<th>Age</th><th>Status (deprecated)</th><th>Charts</th></tr></thead><tbody>");
  for (const ReportComponent& c : p.components) {
    const std::string cls(OutcomeClass(c.last_outcome));
    h.Raw("<tr class=\"component\">").Element("td", c.name).Element("td", c.last_type.empty() ? "-" : c.last_type);
    h.Element("td", c.last_outcome, {{"class", "cell-" + cls}});
    AgeCell(h, c.last_age, c.last_time);
    h.Element("td", c.status.empty() ? "-" : c.status, {{"class", "cell-" + std::string(OutcomeClass(c.status))}});
    h.Raw("<td>");
    if (c.charts.empty()) h.Text("-");
    for (std::size_t k = 0; k < c.charts.size(); ++k) {
      if (k > 0) h.Raw("<br>");
      h.Text(c.charts[k]);
    }
    h.Raw("</td></tr>");
  }
  h.Raw("</tbody></table>");
}

void Timeline(HtmlWriter& h, const ReportPackage& p) {
  h.Raw("<h4>Events (").Text(std::to_string(p.events.size()));
  h.Raw(p.history_from_cache ? ", the cache's full history)</h4>" : ", as stored in the Secret)</h4>");
  if (p.events.empty()) {
    h.Raw("<p>No event history: the status shown is the one the Secret stores (marked "
          "<code>stored:</code>), or Unknown where it stores none.</p>");
    return;
  }
  if (std::any_of(p.events.begin(), p.events.end(), [](const ReportEvent& e) { return e.observed; })) {
    h.Raw("<p class=\"legend timeline-legend\"><span class=\"dot\"></span>recorded by a ZEP-0026 "
          "writer as it acted<span class=\"dot observed\"></span><span class=\"tag\">observed"
          "</span> derived by an observer from Zarf's own writes to the Secret</p>");
  }
  h.Raw("<ol class=\"timeline\">");
  for (const ReportEvent& e : p.events) {
    const std::string cls = "event outcome-" + std::string(OutcomeClass(e.outcome)) +
                            (e.component.empty() ? "" : " component") +
                            (e.observed ? " observed" : "");
    h.Open("li", {{"class", cls}});
    Age(h, e.age, e.time, " ago");
    if (!e.component.empty()) h.Text("component ").Element("b", e.component).Text(" ");
    h.Text(e.outcome.empty() ? e.type : e.type + "/" + e.outcome);
    if (!e.version.empty()) h.Text(" version " + e.version);
    if (e.version_changed) h.Element("span", "new version", {{"class", "change"}});
    if (!e.config_digest.empty()) {
      h.Text(" ").Element("span", "config " + e.config_digest.substr(0, 19), {{"class", "digest"}, {"title", e.config_digest}});
    }
    if (e.config_changed) h.Element("span", "config changed", {{"class", "change"}});
    if (e.observed) h.Element("span", "observed", {{"class", "tag"}});
    h.Close("li");
  }
  h.Raw("</ol>");
}

void Packages(HtmlWriter& h, const ReportData& d) {
  h.Raw("<section id=\"packages\"><h2>Packages</h2>");
  for (std::size_t i = 0; i < d.packages.size(); ++i) {
    const ReportPackage& p = d.packages[i];
    h.Open("details", {{"class", "package"}, {"id", PackageAnchor(i)}, {"data-search", SearchText(p)}});
    h.Raw("<summary>").Element("span", p.name, {{"class", "name"}});
    const std::string version = VersionText(p);
    if (!version.empty()) h.Text(" ").Text(version);
    h.Element("span", p.latest, {{"class", "badge outcome-" + std::string(OutcomeClass(p.latest_outcome))}});
    h.Raw("</summary>");
    // Past the table's rows, a package's body is unparsed text to a browser
    // running the script until it is opened (MoreRowsNote), plain HTML to one
    // without.
    if (i >= kTableRows) h.Raw("<noscript>");
    h.Raw("<dl class=\"facts\">");
    h.Element("dt", "Secret").Element("dd", p.secret_name);
    h.Element("dt", "source").Element("dd", p.source);
    h.Element("dt", "shape").Element("dd", p.format);
    h.Element("dt", "codec").Element("dd", p.codec + (p.zarf_note.empty() ? "" : " (no Zarf release can read it)"));
    h.Element("dt", "size").Element("dd", WithThousands(p.secret_bytes) + " of " + WithThousands(kSecretSizeLimit) +
                                              " bytes (" + Percent(p.secret_bytes) + ")");
    h.Raw("</dl>");
    Components(h, p);
    Timeline(h, p);
    if (i >= kTableRows) h.Raw("</noscript>");
    h.Close("details");
  }
  h.Raw("</section>");
}

}  // namespace

std::string RenderReportPage(const ReportData& d) {
  HtmlWriter h;
  h.Raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>zarf-state report</title>\n<style>");
  h.Raw(ReportCss()).Raw("</style></head>\n<body><header><h1>zarf-state report</h1><p class=\"meta\">");
  h.Text("Generated at " + d.generated_at + " from ");
  for (std::size_t i = 0; i < d.inputs.size(); ++i) h.Text((i ? ", " : "") + d.inputs[i]);
  h.Text(": " + std::to_string(d.packages.size()) + " package Secret(s), " +
         std::to_string(d.init_states.size()) + " init state(s).");
  h.Raw("</p><nav><a href=\"#overview\">Overview</a><a href=\"#packages\">Packages</a>");
  if (!d.init_states.empty()) h.Raw("<a href=\"#init-states\">Init state</a>");
  if (d.migration) h.Raw("<a href=\"#migration\">Migration</a>");
  if (d.prune_plan) h.Raw("<a href=\"#prune\">Prune plan</a>");
  if (!d.growth.empty()) h.Raw("<a href=\"#growth\">Growth</a>");
  h.Raw("</nav></header>\n<main>");
  Overview(h, d);
  Packages(h, d);
  InitStates(h, d);
  if (d.migration) RenderMigration(h, *d.migration);
  if (d.prune_plan) RenderPrunePlan(h, *d.prune_plan);
  if (!d.growth.empty()) {
    h.Raw("<section id=\"growth\"><h2>Growth</h2>");
    // The SVG is svg_plot's markup; its texts were escaped there.
    for (const ReportChart& c : d.growth) h.Raw("<figure>").Raw(c.svg).Raw("</figure>");
    h.Raw("</section>");
  }
  h.Raw("</main>\n<script>").Raw(ReportScript()).Raw("</script>\n</body></html>\n");
  return h.Take();
}

}  // namespace zs::tools
