#include "cli/package_session.h"

#include <fstream>
#include <sstream>

#include "json/json_reader.h"
#include "model/model_json.h"
#include "model/names.h"
#include "kube/package_secret.h"
#include "engine/fold.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "kube/input.h"

namespace zs::tools {
Result<std::unique_ptr<PackageSession>> PackageSession::Open(const SessionOptions& options,
                                                             const std::string& package_hint,
                                                             engine::Clock clock) {
  std::unique_ptr<PackageSession> s(new PackageSession());
  s->options_ = options;
  std::string text;
  bool exists = false;
  if (options.secret_path == "-") {
    ZS_ASSIGN_OR_RETURN(s->stdin_text_, ReadFileOrStdin("-"));
    text = s->stdin_text_;
    exists = true;
    s->options_.to_stdout = true;
  } else {
    // --stdout writes nothing to the file: no lock, so a read-only
    // directory works.
    ZS_ASSIGN_OR_RETURN(s->file_, StateFile::Open(options.secret_path, options.create,
                                                  CurrentReadLimits().max_bytes,
                                                  /*lock=*/!options.to_stdout));
    exists = s->file_->exists();
    text = s->file_->contents();
  }
  std::optional<DeployedPackage> stored;
  if (exists) {
    auto read = ReadInput(text, options.secret_path, CurrentReadLimits());
    if (!read.ok()) return WithLimitHint(read.status());
    Input input = std::move(read).value();
    if (input.is_list || input.objects.size() != 1) {
      return Status::InvalidArgument(options.secret_path +
                                     ": record works on one package Secret, not a List");
    }
    InputObject& obj = input.objects[0];
    if (!obj.error.ok()) return obj.error;
    if (obj.payload_kind != PayloadKind::kPackage) {
      return Status::InvalidArgument(obj.label + ": not a package Secret");
    }
    s->is_secret_ = obj.is_secret;
    s->format_ = input.format;
    if (obj.is_secret) s->secret_ = std::move(obj.object);
    auto pkg = DecodePackagePayload(obj.payload);
    if (!pkg.ok()) return pkg.status().WithContext(obj.label);
    stored = std::move(pkg).value();
    s->opened_override_ = stored->namespace_override;
    s->package_ = stored->name;
    s->secret_name_ = PackageSecretName(stored->name, stored->namespace_override);
    if (obj.is_secret) {
      if (!ObjectName(s->secret_).empty()) s->secret_name_ = std::string(ObjectName(s->secret_));
      if (!ObjectNamespace(s->secret_).empty()) {
        s->secret_namespace_ = std::string(ObjectNamespace(s->secret_));
      }
    }
  } else {
    s->package_ = package_hint;
    // A new Secret file is written in the form its name says.
    const std::string& p = options.secret_path;
    if (p.ends_with(".yaml") || p.ends_with(".yml")) s->format_ = TextFormat::kYaml;
  }
  if (s->package_.empty()) {
    return Status::InvalidArgument("cannot tell the package's name: give --package with metadata.name");
  }

  // The package's history and its Secret, changed in one transaction.
  engine::FoldOptions fold{options.max_events};
  if (!options.log_path.empty()) {
    engine::FileEventLogOptions log_options;
    log_options.fold = fold;
    ZS_ASSIGN_OR_RETURN(s->file_log_, engine::FileEventLog::Open(options.log_path, log_options));
  }
  ZS_ASSIGN_OR_RETURN(s->store_, engine::PackageStore::Open(s->file_log_.get(), s->package_,
                                                            stored ? &*stored : nullptr, fold, std::move(clock)));
  if (!s->store_->disagreement().empty()) {
    return Status::InvalidArgument(options.secret_path + " and the log " + options.log_path +
                                   " disagree (first at " + s->store_->disagreement() +
                                   "); run `zarf-state replay --verify` to see the drift");
  }
  return s;
}

Status PackageSession::CheckSecretIdentity(const DeployedPackage& pkg) const {
  const std::string want = PackageSecretName(pkg.name, pkg.namespace_override);
  const std::string have(secret_.is_null() ? want : std::string(ObjectName(secret_)));
  if (have == want) return CheckSecretName(want).WithContext("package " + pkg.name);
  const std::string how = pkg.namespace_override.empty()
                              ? "without a namespace override"
                              : "with NamespaceOverride '" + pkg.namespace_override + "'";
  return Status::InvalidArgument(
      options_.secret_path + (have.empty() ? " is a Secret without a name" : " is Secret " + have) +
      ", but Zarf keeps package " + pkg.name + " " +
      how + " in Secret " + want + "; record it into that Secret's file (a new file is created "
      "with that name); nothing was written");
}

Status PackageSession::Save(std::ostream& out) {
  const DeployedPackage& pkg = store_->lifecycle().snapshot();
  const bool deleted = store_->lifecycle().secret_deleted();
  std::string text;
  if (deleted) {
    // What `kubectl delete -f` needs to find the Secret, and nothing else.
    json::Value doc = json::Value::MakeObject(
        {{"apiVersion", json::Value::String("v1")},
         {"kind", json::Value::String("Secret")},
         {"metadata", json::Value::MakeObject({{"name", json::Value::String(secret_name_)},
                                               {"namespace", json::Value::String(secret_namespace_)}})}});
    text = WriteObject(doc, format_);
  } else if (!is_secret_) {
    if (pkg.namespace_override != opened_override_) {
      return Status::InvalidArgument(
          options_.secret_path + " holds package " + package_ + " " +
          (opened_override_.empty() ? std::string("without a namespace override")
                                    : "with NamespaceOverride '" + opened_override_ + "'") +
          "; Zarf keeps a deploy with NamespaceOverride '" + pkg.namespace_override +
          "' in another Secret, " + PackageSecretName(pkg.name, pkg.namespace_override) +
          ": record it into a file of its own; nothing was written");
    }
    // A bare payload stays a bare JSON payload; it still has to fit.
    text = EncodeDeployedPackage(pkg);
    if (text.size() > kSecretSizeLimit) {
      return Status::TooLarge("package " + package_ + ": the payload would be " +
                              std::to_string(text.size()) + " bytes, over the API server's limit of " +
                              std::to_string(kSecretSizeLimit) + "; nothing was written");
    }
  } else {
    ZS_RETURN_IF_ERROR(CheckSecretIdentity(pkg));
    json::Value secret =
        secret_.is_null() ? MakePackageSecret(pkg.name, pkg.namespace_override, "") : secret_;
    ZS_ASSIGN_OR_RETURN(StoredPackage stored, StorePackage(&secret, pkg, options_.store));
    store_warning_ = std::move(stored.warning);
    if (secret_.is_null()) secret_name_ = std::string(ObjectName(secret));  // as Zarf names it
    text = WriteObject(secret, format_);
  }
  // Nothing is written when the file changed underneath (a writer that
  // ignores the lock, or an edit): its resourceVersion may have moved on.
  const bool to_file = !options_.to_stdout;
  if (to_file) ZS_RETURN_IF_ERROR(ExplainChange(file_->CheckUnchanged()));
  // New records go to the log first: a kill between the two leaves a log
  // ahead of the Secret, which the next run rolls forward. A write of the
  // Secret (or of standard output) that fails takes them back out.
  return store_->Commit([&]() -> Status {
    if (!options_.to_stdout) return ExplainChange(deleted ? file_->Remove() : file_->Replace(text));
    out << text;
    if (!text.empty() && text.back() != '\n') out << '\n';
    return FlushOutput(out, "standard output");
  });
}

std::string PackageSession::SavedLine() const {
  if (!is_secret_) return "package/" + package_ + " configured";
  return "secret/" + secret_name_ + (secret_.is_null() ? " created" : " configured");
}

Status PackageSession::ExplainChange(Status s) const {
  if (s.ok() || secret_.is_null() || file_ == nullptr) return s;
  // Name the resourceVersions when the file now holds another one.
  const json::Value* md = secret_.Find("metadata");
  const std::string was(md != nullptr ? md->StringOr("resourceVersion") : "");
  std::ifstream in(file_->target());
  std::stringstream now_text;
  now_text << in.rdbuf();
  auto now = json::ParseJson(now_text.str());
  if (!now.ok()) return s;
  const json::Value* now_md = now->Find("metadata");
  const std::string is(now_md != nullptr ? now_md->StringOr("resourceVersion") : "");
  if (was == is) return s;
  return Status::IOError(std::string(s.message()) + " (resourceVersion was '" + was +
                         "' when read, is '" + is + "' now)");
}

}  // namespace zs::tools
