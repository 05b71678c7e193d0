// The HTML page of `zarf-state report`: one self-contained document (inline
// CSS, inline SVG and a little plain JavaScript for sorting, filtering and
// expanding; no URL is ever loaded, and a Content-Security-Policy of
// default-src 'none' makes sure of it), readable on screen and printable.
//
// Sections: an overview (warnings, in-progress operations, the init-state
// summary, one row per package with its Secret size as bars against the
// 1 MiB limit and the 90% line), one expandable block per package (a
// component x status matrix and the event timeline), and, when their data
// is there, the migration report, the prune plan and the growth charts.
// Every string from the input is escaped (report/html_writer.h).
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_REPORT_REPORT_PAGE_H_
#define ZARF_STATE_REPORT_REPORT_PAGE_H_

#include <string>
#include <string_view>

#include "json/json_value.h"
#include "report/html_writer.h"
#include "report/report_assets.h"
#include "report/report_data.h"

namespace zs::tools {

// The whole document, from "<!DOCTYPE html>" to "</html>\n".
std::string RenderReportPage(const ReportData& data);

// The migration and prune sections (report_sections.cc): `report` is the
// JSON of `migrate --report-format json`, `plan` that of `prune plan -o
// json`. Members missing or of another kind show as empty.
void RenderMigration(HtmlWriter& h, const json::Value& report);
void RenderPrunePlan(HtmlWriter& h, const json::Value& plan);

}  // namespace zs::tools

#endif  // ZARF_STATE_REPORT_REPORT_PAGE_H_
