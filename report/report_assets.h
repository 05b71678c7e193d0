// The style sheet and the script of the report page: report/report.css and
// report/report.js, embedded at build time (report/CMakeLists.txt), so the
// page stays one self-contained file. Both are constants of the program:
// nothing from the input reaches them.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_REPORT_REPORT_ASSETS_H_
#define ZARF_STATE_REPORT_REPORT_ASSETS_H_

#include <string_view>

namespace zs::tools {

// report.css and report.js, each after a line feed (the page puts them
// inside <style> and <script> as they are).
std::string_view ReportCss();
std::string_view ReportScript();

}  // namespace zs::tools

#endif  // ZARF_STATE_REPORT_REPORT_ASSETS_H_
