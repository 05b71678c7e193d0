// The migration and prune sections of the report page.
#include "report/report_page.h"

namespace zs::tools {
namespace {

using json::Value;

// A member as text: a string as is, a number as written, true/false; else "".
std::string Str(const Value& v, std::string_view key) {
  const Value* m = v.Find(key);
  if (m == nullptr) return "";
  if (m->is_string()) return m->as_string();
  if (m->is_number()) return m->number_raw();
  if (m->is_bool()) return m->as_bool() ? "true" : "false";
  return "";
}

const json::Array& Items(const Value& v, std::string_view key) {
  static const json::Array kEmpty;
  const Value* m = v.Find(key);
  return m != nullptr && m->is_array() ? m->array() : kEmpty;
}

// The strings of array member `key`, one list item each, under `label`.
void StringList(HtmlWriter& h, const Value& v, std::string_view key, std::string_view label,
                std::string_view css = "") {
  const json::Array& items = Items(v, key);
  if (items.empty()) return;
  h.Raw("<p>").Text(label).Raw(":</p>");
  h.Open("ul", {{"class", css}});
  for (const Value& s : items) h.Element("li", s.is_string() ? s.as_string() : "");
  h.Close("ul");
}

void Actions(HtmlWriter& h, const Value& c, std::string_view key, std::string_view label) {
  for (const Value& a : Items(c, key)) {
    const std::string cmd = Str(a, "cmd");
    h.Raw("<li>").Text(std::string(label) + " (" + Str(a, "phase") + "): ");
    h.Element("code", cmd.empty() ? Str(a, "description") : cmd).Raw("</li>");
  }
}

}  // namespace

void RenderMigration(HtmlWriter& h, const Value& report) {
  h.Raw("<section id=\"migration\"><h2>Migration</h2>");
  if (const Value* s = report.Find("summary")) {
    h.Element("p", "Target " + Str(report, "target") + ": " + Str(*s, "migrated") + " migrated, " +
                       Str(*s, "unchanged") + " unchanged, " + Str(*s, "skipped") + " skipped, " +
                       Str(*s, "failed") + " failed, of " + Str(*s, "objects") + " objects.");
  }
  h.Raw("<table class=\"sortable\"><thead><tr><th data-type=\"text\">Object</th>"
        "<th data-type=\"text\">Kind</th><th data-type=\"text\">Detected</th>"
        "<th data-type=\"text\">Target</th><th data-type=\"num\">Bytes before</th>"
        "<th data-type=\"num\">Bytes after</th><th data-type=\"text\">Result</th></tr></thead><tbody>");
  for (const Value& o : Items(report, "objects")) {
    h.Raw("<tr class=\"migration-object\">").Element("td", Str(o, "name")).Element("td", Str(o, "kind"));
    h.Element("td", Str(o, "shape")).Element("td", Str(o, "target"));
    h.Element("td", Str(o, "bytesBefore"), {{"class", "num"}});
    h.Element("td", Str(o, "bytesAfter"), {{"class", "num"}});
    const std::string result = Str(o, "result");
    h.Element("td", result, {{"class", result == "failed" ? "outcome-Failed" : ""}}).Raw("</tr>");
  }
  h.Raw("</tbody></table>");
  for (const Value& o : Items(report, "objects")) {
    h.Raw("<details class=\"migration\"><summary>").Text(Str(o, "name") + ": " + Str(o, "result"));
    h.Raw("</summary>");
    if (!Str(o, "error").empty()) h.Element("p", "error: " + Str(o, "error"), {{"class", "outcome-Failed"}});
    StringList(h, o, "candidates", "Shapes the keys fit");
    StringList(h, o, "evidence", "Evidence");
    StringList(h, o, "mappings", "Mappings");
    StringList(h, o, "warnings", "Warnings", "warnings");
    h.Raw("</details>");
  }
  h.Raw("</section>");
}

void RenderPrunePlan(HtmlWriter& h, const Value& plan) {
  h.Raw("<section id=\"prune\"><h2>Prune plan</h2>");
  h.Element("p", "Package " + Str(plan, "package") + ", " + Str(plan, "operation") +
                     ": what `zarf package deploy --prune` would remove (planned, never executed).");
  h.Raw("<h3>Charts to uninstall from components that stay</h3>");
  if (Items(plan, "charts").empty()) h.Raw("<p>None.</p>");
  h.Raw("<ul>");
  for (const Value& c : Items(plan, "charts")) {
    for (const Value& ch : Items(c, "charts")) {
      h.Raw("<li>").Text(ch.is_string() ? ch.as_string() : "").Text(" (component " + Str(c, "component") + ")").Raw("</li>");
    }
  }
  h.Raw("</ul><h3>Components to remove, in order</h3>");
  if (Items(plan, "components").empty()) h.Raw("<p>None.</p>");
  h.Raw("<ol>");
  for (const Value& c : Items(plan, "components")) {
    h.Raw("<li class=\"prune-component\">").Element("b", Str(c, "name")).Raw("<ul>");
    for (const Value& ch : Items(c, "charts")) {
      h.Element("li", "uninstall chart " + (ch.is_string() ? ch.as_string() : ""));
    }
    Actions(h, c, "actions", "action");
    Actions(h, c, "onFailure", "on failure");
    h.Raw("</ul></li>");
  }
  h.Raw("</ol><h3>Images</h3>");
  if (Str(plan, "imagePruning") == "refused") {
    h.Element("p", "Image pruning refused: " + Str(plan, "imagePruningError"), {{"class", "outcome-Failed"}});
  }
  h.Raw("<table><thead><tr><th>Image</th><th>Decision</th><th>Why</th></tr></thead><tbody>");
  for (const Value& i : Items(plan, "images")) {
    std::string refs;
    for (const Value& r : Items(i, "references")) refs += (refs.empty() ? "" : ", ") + (r.is_string() ? r.as_string() : "");
    h.Raw("<tr>").Element("td", Str(i, "image")).Element("td", "delete", {{"class", "outcome-Failed"}});
    h.Element("td", "no package references it any more; references " + refs).Raw("</tr>");
  }
  for (const Value& k : Items(plan, "keptImages")) {
    std::string by;
    for (const Value& r : Items(k, "keptBy")) by += (by.empty() ? "" : ", ") + (r.is_string() ? r.as_string() : "");
    h.Raw("<tr>").Element("td", Str(k, "image")).Element("td", "keep", {{"class", "outcome-Succeeded"}});
    h.Element("td", "still used by " + by).Raw("</tr>");
  }
  h.Raw("</tbody></table>");
  StringList(h, plan, "warnings", "Warnings", "warnings");
  h.Raw("</section>");
}

}  // namespace zs::tools
