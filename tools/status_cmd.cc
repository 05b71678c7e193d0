#include "tools/status_cmd.h"

#include <CLI/CLI.hpp>

#include <iostream>

#include "codec/credentials.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "codec/model_json.h"
#include "codec/package_secret.h"
#include "codec/secret.h"
#include "engine/derived_status.h"
#include "tools/cluster_input.h"
#include "tools/common.h"
#include "tools/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

Value EventValue(const PackageEvent* e) {
  if (e == nullptr) return Value::Null();
  Value v = Value::MakeObject({{"type", Value::String(e->type)},
                               {"outcome", Value::String(e->outcome)},
                               {"timestamp", Value::String(FormatRfc3339(e->timestamp))}});
  if (!e->version.empty()) v.Set("version", Value::String(e->version));
  if (!e->digest.empty()) v.Set("digest", Value::String(e->digest));
  if (!e->source.empty()) v.Set("source", Value::String(ScrubSource(e->source)));
  if (!e->config_digest.empty()) v.Set("configDigest", Value::String(e->config_digest));
  return v;
}

Value StatusOf(const DeployedPackage& pkg, const Timestamp& now) {
  Value v = Value::MakeObject({{"name", Value::String(pkg.name)}});
  const PackageEvent* latest = engine::LatestEvent(pkg);
  v.Set("latest", latest ? Value::String(latest->type + "/" + latest->outcome)
                         : Value::String(std::string(kOutcomeUnknown)));
  if (auto since = engine::InProgressSince(pkg)) {
    const std::int64_t age = (now.unix_nanos() - since->unix_nanos()) / 1000000000;
    v.Set("inProgressSince", Value::String(FormatRfc3339(*since)));
    v.Set("inProgressSeconds", Value::Int(age));
    v.Set("summary", Value::String(latest->type + " InProgress for " + FormatAge(age)));
  } else {
    v.Set("summary", Value::String(latest ? latest->type + " " + latest->outcome + " at " +
                                                FormatRfc3339(latest->timestamp)
                                          : std::string("Unknown (no event history)")));
  }
  v.Set("latestDeploy", EventValue(engine::LatestEventOfType(pkg, kEventDeploy)));
  v.Set("latestRemove", EventValue(engine::LatestEventOfType(pkg, kEventRemove)));
  v.Set("lastSuccessfulDeploy", EventValue(engine::LastSuccessfulDeploy(pkg)));
  v.Set("configDigest", Value::String(pkg.config_digest));
  Value comps = Value::MakeArray();
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) {
      comps.array().push_back(Value::MakeObject({{"name", Value::String(c.name)},
                                                 {"lastEvent", Value::String(engine::ComponentEventSummary(c))},
                                                 {"status", Value::String(c.status)}}));
    }
  }
  v.Set("components", std::move(comps));
  return v;
}

void PrintTable(const Value& shown, std::ostream& out) {
  // Every value on one line: a line feed in a name cannot start a fake row.
  const Value s = TerminalValues(shown);
  out << "PACKAGE " << s.StringOr("name") << ": " << s.StringOr("summary") << "\n";
  if (!s.StringOr("zarfNote").empty()) {
    out << "  zarf: CANNOT READ this Secret: " << s.StringOr("zarfNote") << "\n";
  }
  auto line = [&](const char* label, const char* key) {
    const Value* e = s.Find(key);
    out << "  " << label;
    if (e == nullptr || e->is_null()) {
      out << "none\n";
      return;
    }
    out << e->StringOr("type") << "/" << e->StringOr("outcome") << " at " << e->StringOr("timestamp");
    if (!e->StringOr("version").empty()) out << " version " << e->StringOr("version");
    out << "\n";
    if (std::string_view(key) == "lastSuccessfulDeploy") {
      if (!e->StringOr("digest").empty()) out << "      digest " << e->StringOr("digest") << "\n";
      if (!e->StringOr("source").empty()) out << "      source " << e->StringOr("source") << "\n";
      if (!e->StringOr("configDigest").empty()) out << "      config " << e->StringOr("configDigest") << "\n";
    }
  };
  line("latest deploy:           ", "latestDeploy");
  line("latest remove:           ", "latestRemove");
  line("last successful deploy:  ", "lastSuccessfulDeploy");
  for (const Value& c : s.Find("components")->array()) {
    out << "  component " << c.StringOr("name") << ": " << c.StringOr("lastEvent")
        << (c.StringOr("status").empty() ? "" : " (status " + std::string(c.StringOr("status")) + ")")
        << "\n";
  }
}

}  // namespace

int RunStatus(const StatusOptions& o, std::ostream& raw_out, std::ostream& err) {
  // Names and values come from Secrets: a table never passes their control
  // characters to the terminal.
  TableStream table(raw_out, o.output == "table");
  std::ostream& out = table.stream();
  if (o.output != "table" && o.output != "json" && o.output != "yaml") {
    err << "error: -o must be table or json\n";
    return kExitUsage;
  }
  auto now_or = ParseNow(o.now);
  if (!now_or.ok()) {
    err << "error: " << TerminalText(now_or.status().message()) << "\n";
    return kExitUsage;
  }
  const Timestamp now = *now_or;
  Value all = Value::MakeArray();
  std::size_t init_states = 0;
  bool failed = ForEachObject(o.files, err, [&](const InputObject& in) -> Status {
    if (in.payload_kind != PayloadKind::kPackage) {
      // The init state has no lifecycle: said, never silently skipped.
      ++init_states;
      err << TerminalText(in.label) << ": the Zarf init state (zarf-state), not a package Secret: "
          << "it has no deploy status; skipped\n";
      return Status::OK();
    }
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
    Value status = StatusOf(pkg, now);
    if (const std::string_view note = ZarfCannotRead(in.payload); !note.empty()) {
      status.Set("zarfNote", Value::String(std::string(note)));
    }
    all.array().push_back(std::move(status));
    return Status::OK();
  });
  if (all.array().empty() && init_states > 0) {
    err << "error: no package Secret in the input, only the init state: nothing to report "
           "(status reports package Secrets, zarf-package-*)\n";
    failed = true;
  }
  if (o.output != "table") {
    PrintDocument(all, o.output, out);
  } else {
    for (const Value& s : all.array()) PrintTable(s, out);
  }
  return failed ? kExitSomeFailed : kExitOk;
}

void RegisterStatus(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<StatusOptions>();
  CLI::App* cmd = app->add_subcommand("status", "Derived status: latest event, in progress since when, last successful deploy");
  CLI::Option* files = cmd->add_option("-f,--filename", o->files, "Input file(s); '-' for stdin")->default_val(std::vector<std::string>{"-"});
  AddOutputOption(cmd, &o->output, {"table", "json", "yaml"});
  cmd->add_option("--now", o->now, "Compute ages as of this RFC 3339 time");
  // The init state: not read, not fetched.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/false);
  cmd->callback([o, cluster, exit_code] {
    if (!PrepareCommandInput(*cluster, &o->files, "status", exit_code)) return;
    *exit_code = RunStatus(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
