// `zarf-state ingest --db DIR [-f FILE|-]... [--full-dump]`: loads package
// Secrets (single objects, Lists, a whole `kubectl get secrets -n zarf -l
// package-deploy-info -o json` dump, or bare payloads) into the local cache
// (engine/cache.h). Each Secret is one atomic WriteBatch.
//
// Acknowledgements: one line per Secret on stdout, "ingested KEY (+N
// records[, snapshot updated])" or "unchanged KEY", printed only once the
// Secret's batch is durable: batches are written without fsync and the WAL
// is fsynced every --sync-every Secrets and at the end, before their lines
// are printed (--no-sync: acknowledged after the write, which survives a
// crash of this process but not of the machine).
//
// --full-dump: the input is every package Secret of the cluster; packages in
// the cache that it does not contain are marked removed (never deleted),
// printed "removed KEY". Skipped when any object of the input failed, since
// an unreadable Secret would otherwise look removed.
//
// Progress ("ingest: N/M Secrets") goes to stderr when stderr is a
// terminal. Exit 1 when some object failed (the others are ingested).
#ifndef ZARF_STATE_TOOLS_INGEST_CMD_H_
#define ZARF_STATE_TOOLS_INGEST_CMD_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace zs::tools {

struct IngestOptions {
  std::string db;                  // required
  std::vector<std::string> files;  // default: stdin
  bool full_dump = false;
  std::size_t sync_every = 256;    // Secrets per WAL fsync
  bool no_sync = false;
  bool progress = false;           // set by the CLI when stderr is a tty
};

int RunIngest(const IngestOptions& options, std::ostream& out, std::ostream& err);
void RegisterIngest(CLI::App* app, int* exit_code);

}  // namespace zs::tools

#endif  // ZARF_STATE_TOOLS_INGEST_CMD_H_
