// `zarf-state verify --db DIR [-o table|json]`: the consistency of the local
// cache (engine/cache.h, Cache::Verify): each package's log is folded and
// compared with its stored snapshot and status record, and every index entry
// is recomputed from the snapshots (missing and extra entries). Prints a
// summary, then one line per problem; exits 1 when there is any.
#ifndef ZARF_STATE_TOOLS_VERIFY_CMD_H_
#define ZARF_STATE_TOOLS_VERIFY_CMD_H_

#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace zs::tools {

struct VerifyOptions {
  std::string db;  // required
  std::string output = "table";
  bool progress = false;  // a progress line on stderr (tools/progress.h)
  bool quiet = false;     // -q: the CLI sets no progress
};

int RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err);
void RegisterVerify(CLI::App* app, int* exit_code);

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_VERIFY_CMD_H_
