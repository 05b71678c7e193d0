// Tables as the tests read them: the layer pads columns with blanks whose
// number depends on the widest cell, so a row is compared with each run of
// blanks taken as one space.
#ifndef ZARF_STATE_TESTS_TABLE_ROWS_H_
#define ZARF_STATE_TESTS_TABLE_ROWS_H_

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace zs::testing {

// The lines of `text`, each with its runs of blanks as one space and none
// at either end.
inline std::vector<std::string> SqueezedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string joined, w;
    while (words >> w) joined += (joined.empty() ? "" : " ") + w;
    lines.push_back(joined);
  }
  return lines;
}

// Whether `rows` (squeezed) are lines of `text` that follow one another.
inline bool HasTableRows(const std::string& text, const std::vector<std::string>& rows) {
  const std::vector<std::string> lines = SqueezedLines(text);
  for (std::size_t i = 0; i + rows.size() <= lines.size(); ++i) {
    if (std::equal(rows.begin(), rows.end(), lines.begin() + static_cast<std::ptrdiff_t>(i))) {
      return true;
    }
  }
  return false;
}

inline bool HasTableRow(const std::string& text, const std::string& row) {
  return HasTableRows(text, {row});
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_TABLE_ROWS_H_
