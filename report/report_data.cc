#include "report/report_data.h"

#include <algorithm>

namespace zs::tools {

void SortByUse(std::vector<ReportPackage>* packages) {
  std::stable_sort(packages->begin(), packages->end(),
                   [](const ReportPackage& a, const ReportPackage& b) {
                     if (a.secret_bytes != b.secret_bytes) return a.secret_bytes > b.secret_bytes;
                     return a.name < b.name;
                   });
}

}  // namespace zs::tools
