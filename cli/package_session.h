// PackageSession: one package's state as `zarf-state record` sees it — the
// Secret file (or a bare payload), optionally its record log, the EventLog
// rebuilt from them, and a Lifecycle to append to — and writing it all back.
//
// Loading: the Secret and the record log go to one engine::PackageStore
// (engine/package_store.h), which reads the log's tail once: a log that has
// records for the package is the source of truth (a Secret that trails it
// is rolled forward; any other drift is the error); without such a log the
// Secret's snapshot becomes the history's Base record. Saving: the new snapshot is
// encoded Go-exactly, checked against the API server's size limit, put into
// the same Secret object (metadata and resourceVersion kept) or a new one
// named as Zarf names it, and installed atomically; new records are appended
// to the log, whose lock is held until the Secret is written. Nothing is
// written if any step fails: the file is checked to still be the one read
// (io/state_file.h), and a Secret write (or, with --stdout, a write of
// standard output) that fails after the log append takes the appended
// records back out of the log.
// The Secret's metadata, resourceVersion included, is the API server's and
// is never advanced here.
//
// Thread safety: not thread-safe.
#ifndef ZARF_STATE_CLI_PACKAGE_SESSION_H_
#define ZARF_STATE_CLI_PACKAGE_SESSION_H_

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kube/package_secret.h"
#include "kube/secret.h"
#include "base/status.h"
#include "engine/event_log.h"
#include "engine/file_event_log.h"
#include "engine/lifecycle.h"
#include "engine/package_store.h"
#include "io/state_file.h"

namespace zs::tools {

struct SessionOptions {
  std::string secret_path;  // "-": read stdin, write stdout
  std::string log_path;     // optional record log
  std::size_t max_events = 10;
  bool to_stdout = false;   // print instead of replacing the file
  bool create = false;      // the Secret file may not exist yet
  StoreOptions store;       // codec choice for the written Secret
};

class PackageSession {
 public:
  // `package_hint` names the package when the Secret does not exist yet.
  static Result<std::unique_ptr<PackageSession>> Open(const SessionOptions& options,
                                                      const std::string& package_hint,
                                                      engine::Clock clock = nullptr);

  engine::Lifecycle& lifecycle() { return store_->lifecycle(); }
  const std::string& package() const { return package_; }

  // Writes the Secret (or payload) and appends new records to the log.
  // Refused (InvalidArgument, nothing written) when the package's state
  // belongs in a Secret of another name than the file's: Zarf keeps a
  // deploy with a namespace override in `zarf-package-<name>-override-<ns>`
  // (model/names.h), so such a deploy goes to a new file, which is named so.
  // When the operation left no component (the lifecycle says the Secret is
  // deleted, as Zarf deletes it), the file is deleted instead, or with
  // --stdout / `-f -` a deletion document is printed: a Secret with
  // apiVersion, kind and metadata name + namespace only, which `kubectl
  // delete -f` takes. The records stay in the log.
  Status Save(std::ostream& out);
  // What the last Save's store said the user must hear (a compact Secret, a
  // Secret near the limit), or "".
  const std::string& store_warning() const { return store_warning_; }
  // The name and namespace of the package's Secret, as read or as Zarf
  // names a new one.
  const std::string& secret_name() const { return secret_name_; }
  // What Save wrote, as kubectl apply says it: "secret/NAME created" (a new
  // Secret file) or "secret/NAME configured"; for a bare payload file
  // "package/NAME configured".
  std::string SavedLine() const;

 private:
  PackageSession() = default;

  // `s` with the Secret's resourceVersion, as read and as it is now, added
  // when `s` failed because the file changed underneath.
  Status ExplainChange(Status s) const;
  // OK when the Secret read (or the new one) is the one Zarf keeps `pkg` in.
  Status CheckSecretIdentity(const DeployedPackage& pkg) const;

  SessionOptions options_;
  std::string package_;
  std::unique_ptr<StateFile> file_;
  std::string stdin_text_;
  bool is_secret_ = true;
  TextFormat format_ = TextFormat::kJson;
  json::Value secret_;  // the Secret object read (null when new)
  std::string opened_override_;  // the namespace override of the state read
  std::string secret_name_;
  std::string secret_namespace_ = "zarf";
  std::unique_ptr<engine::FileEventLog> file_log_;  // the record log, if any
  std::unique_ptr<engine::PackageStore> store_;      // the log and the Secret's transaction
  std::string store_warning_;
};

}  // namespace zs::tools

#endif  // ZARF_STATE_CLI_PACKAGE_SESSION_H_
