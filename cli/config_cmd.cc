#include "cli/config_cmd.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cctype>
#include <iostream>

#include "json/canonical_json.h"
#include "model/config.h"
#include "model/credentials.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "engine/config_diff.h"
#include "cli/common.h"
#include "kube/input.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

const std::vector<std::string> kDiffFormats = {"table", "wide", "json", "yaml"};

// A config argument, as Zarf holds it: decoded with Go's rules, then
// marshalled, so field-name case, duplicates and nil maps are settled before
// comparing. Either a DeployConfig/RemoveConfig document or a package Secret
// (or bare DeployedPackage), whose recorded deployConfig is used.
struct LoadedConfig {
  std::string marshaled;
  // Go's digest of the config as deployed: of `marshaled`, or for a package
  // whose deployConfig keeps redacted sensitive values, its configDigest.
  std::string digest;
  std::vector<std::string> sensitive;  // the package's sensitive variables
  bool redacted = false;               // `marshaled` holds redacted values
};

bool IsKubernetesObject(const json::Value& doc) {
  return doc.is_object() && (doc.Find("kind") != nullptr || doc.Find("apiVersion") != nullptr);
}

bool IsBarePackage(const json::Value& doc) {
  return doc.is_object() &&
         (doc.Find("deployedComponents") != nullptr ||
          (doc.Find("cliVersion") != nullptr && doc.Find("data") != nullptr));
}

// A ZarfPackageConfig/ZarfInitConfig, or a document with a definition's
// `metadata` or `components` and none of a config's fields (Go's decoder
// would ignore the rest and digest an empty config: a silent wrong answer).
bool LooksLikePackageDefinition(const json::Value& doc) {
  if (!doc.is_object()) return false;
  const std::string_view kind = doc.StringOr("kind");
  if (kind == "ZarfPackageConfig" || kind == "ZarfInitConfig") return true;
  if (doc.Find("components") == nullptr && doc.Find("metadata") == nullptr) return false;
  for (const json::Member& m : doc.object()) {
    std::string key = m.first;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (key == "setvariables" || key == "values" || key == "namespaceoverride" ||
        key == "valuesoverridesmap") {
      return false;
    }
  }
  return !IsKubernetesObject(doc);
}

// Whether a SetVariables value of `config` is kRedacted.
bool ContainsRedacted(const json::Value& config) {
  const json::Value* vars = config.Find("SetVariables");
  if (vars == nullptr || !vars->is_object()) return false;
  for (const json::Member& m : vars->object()) {
    if (m.second.is_string() && m.second.as_string() == kRedacted) return true;
  }
  return false;
}

Result<std::string> MarshalConfig(const json::Value& doc, const std::string& kind) {
  if (kind == "deploy") {
    ZS_ASSIGN_OR_RETURN(DeployConfig c, DecodeDeployConfig(doc));
    return MarshalDeployConfig(c);
  }
  ZS_ASSIGN_OR_RETURN(RemoveConfig c, DecodeRemoveConfig(doc));
  return MarshalRemoveConfig(c);
}

// The deployConfig a package Secret (or bare payload) in `text` recorded.
Result<LoadedConfig> LoadRecordedConfig(const std::string& text, const std::string& path,
                                        const std::string& kind) {
  ZS_ASSIGN_OR_RETURN(Input input, ReadInput(text, path, CurrentReadLimits()));
  if (input.is_list || input.objects.size() != 1) {
    return Status::InvalidArgument(path + ": give one package Secret or one config, not a List");
  }
  const InputObject& obj = input.objects[0];
  if (!obj.error.ok()) return obj.error;
  if (obj.payload_kind != PayloadKind::kPackage) {
    return Status::InvalidArgument(obj.label + ": the init state holds no deploy config");
  }
  ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(obj.payload));
  const std::string who = obj.label + ": package " + pkg.name;
  if (kind != "deploy") {
    return Status::InvalidArgument(who + ": a package Secret records a DeployConfig; use --kind deploy");
  }
  if (!pkg.deploy_config) {
    return Status::InvalidArgument(
        who + " has no deployConfig (no successful deploy recorded with it; a legacy Secret "
              "has none), so there is no config to use");
  }
  LoadedConfig out;
  auto marshaled = MarshalConfig(*pkg.deploy_config, kind);
  if (!marshaled.ok()) return marshaled.status().WithContext(who + ": deployConfig");
  out.marshaled = std::move(marshaled).value();
  out.sensitive = SensitiveVariables(pkg.data);
  // Sensitive values were stored redacted: the config can no longer be
  // digested, but Go's digest of it as deployed is recorded.
  out.redacted = ContainsRedacted(*pkg.deploy_config);
  out.digest = out.redacted ? pkg.config_digest : Sha256Digest(out.marshaled);
  return out;
}

Result<LoadedConfig> LoadConfig(const std::string& path, const std::string& kind) {
  ZS_ASSIGN_OR_RETURN(std::string text, ReadFileOrStdin(path));
  ZS_ASSIGN_OR_RETURN(json::Value doc, ParseDocument(text, path));
  if (LooksLikePackageDefinition(doc)) {
    return Status::InvalidArgument(
        path + " is a package definition (zarf.yaml: " +
        (doc.Find("kind") != nullptr ? std::string(doc.StringOr("kind")) + ", " : "") +
        "metadata, components), not a " + (kind == "deploy" ? "DeployConfig" : "RemoveConfig") +
        " or a package Secret: a definition holds no deploy config to digest; give the config "
        "file, or the package's Secret for the config it was deployed with");
  }
  if (IsKubernetesObject(doc) || IsBarePackage(doc)) return LoadRecordedConfig(text, path, kind);
  LoadedConfig out;
  auto marshaled = MarshalConfig(doc, kind);
  // Every error names the file, a value out of float64 range included.
  if (!marshaled.ok()) return marshaled.status().WithContext(path);
  out.marshaled = std::move(marshaled).value();
  out.digest = Sha256Digest(out.marshaled);
  return out;
}

const char* ChangeName(engine::ConfigChange::Kind kind) {
  switch (kind) {
    case engine::ConfigChange::Kind::kAdded:
      return "added";
    case engine::ConfigChange::Kind::kRemoved:
      return "removed";
    case engine::ConfigChange::Kind::kChanged:
      break;
  }
  return "changed";
}

// A value in a cell: compact JSON as Go writes it.
std::string Shown(const json::Value& v) {
  std::string s;
  if (!json::AppendJson(&s, v).ok()) return "?";  // only under float64 number styles
  return s;
}

}  // namespace

json::Value ConfigChangesJson(const std::vector<engine::ConfigChange>& changes) {
  json::Value list = json::Value::MakeArray();
  for (const engine::ConfigChange& c : changes) {
    list.array().push_back(
        json::Value::MakeObject({{"path", json::Value::String(c.path)},
                                 {"change", json::Value::String(ChangeName(c.kind))},
                                 {"old", c.old_value},
                                 {"new", c.new_value},
                                 {"masked", json::Value::Bool(c.masked)}}));
  }
  return list;
}

void PrintConfigChangesTable(const std::vector<engine::ConfigChange>& changes,
                             const OutputOptions& output, std::ostream& out) {
  Table table({{"CHANGE"}, {"PATH"}, {"OLD"}, {"NEW"}, {"MASKED", true}});
  for (const engine::ConfigChange& c : changes) {
    using Kind = engine::ConfigChange::Kind;
    table.AddRow({ChangeName(c.kind), c.path.empty() ? "(root)" : c.path,
                  c.kind == Kind::kAdded ? "-" : Shown(c.old_value),
                  c.kind == Kind::kRemoved ? "-" : Shown(c.new_value),
                  c.masked ? "yes" : "no"});
  }
  table.Print(output, out);
}

CommandStatus RunConfig(const ConfigOptions& o, std::ostream& out, std::ostream& err) {
  if (o.action == "diff") ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kDiffFormats));
  if (o.kind != "deploy" && o.kind != "remove") {
    return Status::Usage("--kind must be deploy or remove");
  }
  if (o.action == "digest") {
    auto config = LoadConfig(o.file, o.kind);
    if (!config.ok()) return config.status();
    if (!o.canonical) {
      out << config->digest << "\n";
      return Status::OK();
    }
    if (config->redacted) {
      return Status::InvalidArgument(
          o.file +
          ": the recorded deployConfig keeps sensitive variables redacted, so its canonical "
          "digest cannot be computed (its Go digest is the recorded configDigest " +
          config->digest + ")");
    }
    auto digest = json::CanonicalDigest(*json::ParseJson(config->marshaled));
    if (!digest.ok()) return digest.status();
    out << *digest << "\n";
    return Status::OK();
  }
  auto a = LoadConfig(o.old_file, o.kind);
  auto b = a.ok() ? LoadConfig(o.new_file, o.kind) : a;
  if (!b.ok()) return b.status();
  std::vector<std::string> sensitive = a->sensitive;
  sensitive.insert(sensitive.end(), b->sensitive.begin(), b->sensitive.end());
  if (!o.package_file.empty()) {
    auto package = ReadDocument(o.package_file);
    if (!package.ok()) return package.status().WithContext("--package");
    const std::vector<std::string> more = SensitiveVariables(*package);
    sensitive.insert(sensitive.end(), more.begin(), more.end());
  }
  auto changes = engine::DiffRedactedConfigs(*json::ParseJson(a->marshaled), a->digest,
                                             *json::ParseJson(b->marshaled), b->digest, sensitive);
  if (!changes.ok()) return changes.status();
  if (o.output.structured()) {
    PrintStructured(ConfigChangesJson(*changes), o.output.format, out);
  } else if (changes->empty()) {
    // No table of nothing: a person reads why, a script sees no rows.
    if (!o.output.no_headers) out << "no changes (digests equal: " << a->digest << ")\n";
  } else {
    // The digests Zarf records, above the table (as a title, so not with
    // --no-headers).
    if (!o.output.no_headers) out << a->digest << " -> " << b->digest << "\n";
    PrintConfigChangesTable(*changes, o.output, out);
  }
  const bool differ = !changes->empty() || a->digest != b->digest;
  // --exit-code: a difference is a failure the output already shows.
  return CommandStatus::FailedIf(o.exit_code && differ);
}

void RegisterConfig(CLI::App* app, CommandStatus* outcome) {
  CLI::App* config = app->add_subcommand("config", "Digest or compare DeployConfig/RemoveConfig");
  config->require_subcommand(1);
  auto digest = std::make_shared<ConfigOptions>();
  digest->action = "digest";
  CLI::App* d = config->add_subcommand("digest", "Print sha256:<hex> as Zarf computes it");
  d->add_option("--kind", digest->kind, "deploy | remove")->default_val("deploy");
  d->add_option("-f,--filename", digest->file, "Config as JSON or YAML, or a package Secret; '-' for stdin")->default_val("-");
  d->add_flag("--canonical", digest->canonical, "RFC 8785 canonical digest (jcs-sha256:), where 5 == 5.0");
  d->callback([digest, outcome] {
    // Nothing piped in: an error, not a wait for text nobody types.
    if (digest->file == "-" && ::isatty(STDIN_FILENO) != 0) {
      *outcome = Status::Usage(
          "config digest: standard input is a terminal; give the config with -f FILE, or pipe "
          "it in (zarf-state config digest < deploy-config.json)");
      return;
    }
    *outcome = RunConfig(*digest, std::cout, std::cerr);
  });
  auto diff = std::make_shared<ConfigOptions>();
  diff->action = "diff";
  CLI::App* f = config->add_subcommand("diff", "Paths that changed between two configs");
  f->add_option("OLD", diff->old_file, "Old config (JSON or YAML), or a package Secret")->required();
  f->add_option("NEW", diff->new_file, "New config (JSON or YAML), or a package Secret")->required();
  f->add_option("--kind", diff->kind, "deploy | remove")->default_val("deploy");
  AddOutputOptions(f, &diff->output, kDiffFormats);
  f->add_option("--package", diff->package_file,
                "ZarfPackage definition: also mask the variables it marks sensitive");
  f->add_flag("--exit-code", diff->exit_code, "Exit 1 when the configs differ (as git diff)");
  f->callback([diff, outcome] { *outcome = RunConfig(*diff, std::cout, std::cerr); });
}

}  // namespace zs::tools
