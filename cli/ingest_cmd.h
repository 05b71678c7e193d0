// `zarf-state ingest --db DIR [-f FILE|-]... [--full-dump]`: loads package
// Secrets (single objects, Lists, a whole `kubectl get secrets -n zarf -l
// package-deploy-info -o json` dump, or bare payloads) into the local cache
// (engine/cache.h). Each Secret is one atomic WriteBatch.
//
// Acknowledgements: one line per Secret on stdout, "ingested KEY (+N
// records[, snapshot updated])" or "unchanged KEY", printed only once the
// Secret's batch is durable: batches are written without fsync and the WAL
// is fsynced every --sync-every Secrets (default 256) and at the end, before
// their lines are printed (--no-sync: acknowledged after the write, which
// survives a crash of this process but not of the machine).
//
// --bulk: for loading a big dump. Batches skip RocksDB's write-ahead log, and
// the memtables are flushed to table files every --sync-every Secrets
// (default 4096; a flush writes files, so it is done less often than an
// fsync) and at the end, before their lines are printed. A crash loses the
// unacknowledged Secrets only, whole; ingesting the input again restores them.
//
// --full-dump: the input is every package Secret of the cluster; packages in
// the cache that it does not contain are marked removed (never deleted),
// printed "removed KEY". Skipped when any object of the input failed, since
// an unreadable Secret would otherwise look removed.
//
// -o json|yaml: no lines; once everything is acknowledged, one document:
// {"summary": {"ingested": N, "unchanged": N, "removed": N, "skipped": N,
// "failed": N}, "objects": [{"name", "result", ("newRecords",
// "snapshotUpdated" when ingested; "reason" when skipped or failed)}],
// "errors": [messages of errors of no one object]}. A skipped object is not
// a package Secret (the Zarf init state).
//
// Progress ("ingest: N/M Secrets") goes to stderr when stderr is a
// terminal. Exit 1 when some object failed (the others are ingested).
#ifndef ZARF_STATE_CLI_INGEST_CMD_H_
#define ZARF_STATE_CLI_INGEST_CMD_H_

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command_status.h"
#include "cli/output.h"

namespace CLI {
class App;
}

namespace zs::tools {

struct IngestOptions {
  std::string db;                  // required
  std::vector<std::string> files;  // default: stdin
  bool full_dump = false;
  // Secrets per acknowledgement (WAL fsync, or with `bulk` a flush); 0 for
  // the default of the mode (SyncEvery).
  std::size_t sync_every = 0;
  bool no_sync = false;
  bool bulk = false;
  bool progress = false;           // a progress line on stderr (cli/progress.h)
  bool quiet = false;              // -q: the CLI sets no progress
  // -o table (default): the acknowledgement lines, streamed; json or yaml:
  // one summary document at the end. --no-headers changes nothing (no header).
  OutputOptions output;
};

// Secrets per acknowledgement: options.sync_every, or the mode's default.
std::size_t SyncEvery(const IngestOptions& options);

CommandStatus RunIngest(const IngestOptions& options, std::ostream& out, std::ostream& err);
void RegisterIngest(CLI::App* app, CommandStatus* outcome);

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_INGEST_CMD_H_
