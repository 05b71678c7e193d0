#include "cli/input_paths.h"

#include <sys/stat.h>

#include "base/terminal_text.h"

namespace zs::tools {

Status RefuseDirectoryInputs(const std::vector<std::string>& files) {
  for (const std::string& f : files) {
    struct stat st {};
    if (f == "-" || ::stat(f.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    std::string dir = TerminalText(f);
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    return Status::InvalidArgument(dir + ": is a directory, not a file of Secrets; give its files (-f " +
                                   dir + "/*.json) or one kubectl dump (kubectl get secrets -n "
                                   "zarf -o json > secrets.json)");
  }
  return Status::OK();
}

}  // namespace zs::tools
