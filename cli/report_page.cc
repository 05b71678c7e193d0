#include "cli/report_page.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "kube/secret.h"
#include "model/timestamp.h"
#include "report/html_writer.h"
#include "report/svg_plot.h"

namespace zs::tools {
namespace {

using json::Value;

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

std::string SearchText(const ReportPackage& p) {
  return Lower(p.name + " " + p.version + " " + p.secret_name + " " + p.latest + " " + p.source);
}

void Bar(HtmlWriter& h, const ReportPackage& p) {
  const std::string title = "JSON " + WithThousands(p.json_bytes) + " B, compact " +
                            (p.compact_bytes ? WithThousands(p.compact_bytes) + " B" : "n/a") +
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
    h.Raw(": ").Text(p.latest + " for " + FormatAge(*p.in_progress_seconds) + " (since " +
                     p.latest_time + ")");
    h.Raw("</li>");
  }
  h.Raw(any ? "</ul>" : "<p>None.</p>");

  h.Raw("<h3>Package Secrets (").Text(std::to_string(d.packages.size())).Raw(")</h3>");
  h.Raw("<div class=\"tools\"><input type=\"search\" id=\"filter\" "
        "placeholder=\"Filter packages: name, version, event\" aria-label=\"Filter packages\"> "
        "<button type=\"button\" id=\"expand-all\">Expand all</button> "
        "<button type=\"button\" id=\"collapse-all\">Collapse all</button></div>");
  h.Raw("<p class=\"legend\">Bars against the 1 MiB limit:<span style=\"background:var(--json)\">"
        "</span>JSON<span style=\"background:var(--compact)\"></span>compact (the codec in use is "
        "solid; the dashed line is 90%)</p>");
  h.Raw("<table id=\"package-table\" class=\"sortable\"><thead><tr>"
        "<th data-type=\"text\">Package</th><th data-type=\"text\">Version</th>"
        "<th data-type=\"text\">Codec</th><th data-type=\"num\">Secret bytes</th>"
        "<th data-type=\"num\">Used</th><th>Size against 1 MiB</th>"
        "<th data-type=\"text\">Latest event</th><th data-type=\"num\">Events</th>"
        "</tr></thead><tbody>");
  for (std::size_t i = 0; i < d.packages.size(); ++i) {
    const ReportPackage& p = d.packages[i];
    h.Open("tr", {{"data-search", SearchText(p)}});
    h.Raw("<td>").Open("a", {{"href", PackageLink(i)}}).Text(p.name).Close("a").Raw("</td>");
    h.Element("td", p.version).Element("td", p.codec);
    h.Element("td", WithThousands(p.secret_bytes), {{"class", "num"}, {"data-sort", std::to_string(p.secret_bytes)}});
    h.Element("td", Percent(p.secret_bytes), {{"class", "num"}, {"data-sort", std::to_string(p.secret_bytes)}});
    h.Raw("<td>");
    Bar(h, p);
    h.Raw("</td>");
    h.Open("td", {{"class", "outcome-" + std::string(OutcomeClass(p.latest_outcome))}})
        .Text(p.latest + (p.latest_time.empty() ? "" : " at " + p.latest_time))
        .Close("td");
    h.Element("td", std::to_string(p.events.size()), {{"class", "num"}});
    h.Close("tr");
  }
  h.Raw("</tbody></table></section>");
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
        "<th>At</th><th>Status (deprecated)</th><th>Charts</th></tr></thead><tbody>");
  for (const ReportComponent& c : p.components) {
    const std::string cls(OutcomeClass(c.last_outcome));
    h.Raw("<tr class=\"component\">").Element("td", c.name).Element("td", c.last_type.empty() ? "-" : c.last_type);
    h.Element("td", c.last_outcome, {{"class", "cell-" + cls}});
    h.Element("td", c.last_time.empty() ? "-" : c.last_time);
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
    h.Element("time", e.time);
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
    if (!p.version.empty()) h.Text(" " + p.version);
    h.Element("span", p.latest, {{"class", "badge outcome-" + std::string(OutcomeClass(p.latest_outcome))}});
    h.Raw("</summary><dl class=\"facts\">");
    h.Element("dt", "Secret").Element("dd", p.secret_name);
    h.Element("dt", "source").Element("dd", p.source);
    h.Element("dt", "shape").Element("dd", p.format);
    h.Element("dt", "codec").Element("dd", p.codec + (p.zarf_note.empty() ? "" : " (no Zarf release can read it)"));
    h.Element("dt", "size").Element("dd", WithThousands(p.secret_bytes) + " of " + WithThousands(kSecretSizeLimit) +
                                              " bytes (" + Percent(p.secret_bytes) + ")");
    h.Raw("</dl>");
    Components(h, p);
    Timeline(h, p);
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
