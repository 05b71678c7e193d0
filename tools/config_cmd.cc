#include "tools/config_cmd.h"

#include <CLI/CLI.hpp>

#include <iostream>

#include "codec/canonical_json.h"
#include "codec/config.h"
#include "codec/go_json.h"
#include "codec/json_reader.h"
#include "engine/config_diff.h"
#include "tools/common.h"

namespace zs::tools {
namespace {

// The config as Zarf holds it: decoded with Go's rules, then marshalled, so
// field-name case, duplicates and nil maps are settled before comparing.
Result<std::string> Marshaled(const std::string& path, const std::string& kind) {
  ZS_ASSIGN_OR_RETURN(json::Value doc, ReadDocument(path));
  Result<std::string> marshaled = std::string();
  if (kind == "deploy") {
    auto c = DecodeDeployConfig(doc);
    marshaled = c.ok() ? MarshalDeployConfig(*c) : Result<std::string>(c.status());
  } else {
    auto c = DecodeRemoveConfig(doc);
    marshaled = c.ok() ? MarshalRemoveConfig(*c) : Result<std::string>(c.status());
  }
  // Every error names the file, a value out of float64 range included.
  if (!marshaled.ok()) return marshaled.status().WithContext(path);
  return marshaled;
}

}  // namespace

json::Value ConfigChangesJson(const std::vector<engine::ConfigChange>& changes) {
  json::Value list = json::Value::MakeArray();
  for (const engine::ConfigChange& c : changes) {
    const char* kind = c.kind == engine::ConfigChange::Kind::kAdded     ? "added"
                       : c.kind == engine::ConfigChange::Kind::kRemoved ? "removed"
                                                                        : "changed";
    list.array().push_back(json::Value::MakeObject({{"path", json::Value::String(c.path)},
                                                    {"change", json::Value::String(kind)},
                                                    {"old", c.old_value},
                                                    {"new", c.new_value},
                                                    {"masked", json::Value::Bool(c.masked)}}));
  }
  return list;
}

int RunConfig(const ConfigOptions& o, std::ostream& out, std::ostream& err) {
  if (o.kind != "deploy" && o.kind != "remove") {
    err << "error: --kind must be deploy or remove\n";
    return kExitUsage;
  }
  if (o.action == "digest") {
    auto bytes = Marshaled(o.file, o.kind);
    if (!bytes.ok()) {
      err << "error: " << bytes.status().message() << "\n";
      return kExitSomeFailed;
    }
    if (!o.canonical) {
      out << Sha256Digest(*bytes) << "\n";
      return kExitOk;
    }
    auto digest = json::CanonicalDigest(*json::ParseJson(*bytes));
    if (!digest.ok()) {
      err << "error: " << digest.status().message() << "\n";
      return kExitSomeFailed;
    }
    out << *digest << "\n";
    return kExitOk;
  }
  auto a = Marshaled(o.old_file, o.kind);
  auto b = a.ok() ? Marshaled(o.new_file, o.kind) : a;
  if (!b.ok()) {
    err << "error: " << b.status().message() << "\n";
    return kExitSomeFailed;
  }
  auto changes = engine::DiffConfigs(*json::ParseJson(*a), *json::ParseJson(*b));
  if (!changes.ok()) {
    err << "error: " << changes.status().message() << "\n";
    return kExitSomeFailed;
  }
  if (o.output == "json") {
    const json::Value list = ConfigChangesJson(*changes);
    std::string s;
    json::AppendIndentedJson(&s, list, "  ");
    out << s << "\n";
  } else if (changes->empty()) {
    out << "no changes (digests equal: " << Sha256Digest(*a) << ")\n";
  } else {
    out << Sha256Digest(*a) << " -> " << Sha256Digest(*b) << "\n" << engine::FormatChanges(*changes);
  }
  return kExitOk;
}

void RegisterConfig(CLI::App* app, int* exit_code) {
  CLI::App* config = app->add_subcommand("config", "Digest or compare DeployConfig/RemoveConfig");
  config->require_subcommand(1);
  auto digest = std::make_shared<ConfigOptions>();
  digest->action = "digest";
  CLI::App* d = config->add_subcommand("digest", "Print sha256:<hex> as Zarf computes it");
  d->add_option("--kind", digest->kind, "deploy | remove")->default_val("deploy");
  d->add_option("-f,--filename", digest->file, "Config as JSON or YAML; '-' for stdin")->default_val("-");
  d->add_flag("--canonical", digest->canonical, "RFC 8785 canonical digest (jcs-sha256:), where 5 == 5.0");
  d->callback([digest, exit_code] { *exit_code = RunConfig(*digest, std::cout, std::cerr); });
  auto diff = std::make_shared<ConfigOptions>();
  diff->action = "diff";
  CLI::App* f = config->add_subcommand("diff", "Paths that changed between two configs");
  f->add_option("OLD", diff->old_file, "Old config (JSON or YAML)")->required();
  f->add_option("NEW", diff->new_file, "New config (JSON or YAML)")->required();
  f->add_option("--kind", diff->kind, "deploy | remove")->default_val("deploy");
  f->add_option("-o,--output", diff->output, "table | json")->default_val("table");
  f->callback([diff, exit_code] { *exit_code = RunConfig(*diff, std::cout, std::cerr); });
}

}  // namespace zs::tools
