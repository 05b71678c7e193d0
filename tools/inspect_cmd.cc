#include "tools/inspect_cmd.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "codec/model_json.h"
#include "codec/compact.h"
#include "codec/credentials.h"
#include "codec/package_secret.h"
#include "codec/secret.h"
#include "yaml/yaml.h"
#include "engine/derived_status.h"
#include "migrate/format.h"
#include "tools/cluster_input.h"
#include "tools/common.h"
#include "tools/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

Value EventValue(const std::string& type, const std::string& outcome, const Timestamp& t) {
  return Value::MakeObject({{"type", Value::String(type)},
                            {"outcome", Value::String(outcome)},
                            {"timestamp", Value::String(FormatRfc3339(t))}});
}

// The stable machine-readable report of one package (docs/cli.md, "zarf-state inspect").
Value PackageReport(const InputObject& in, const DeployedPackage& pkg, std::size_t size) {
  const Value* metadata = pkg.data.Find("metadata");
  std::string why;
  const std::string_view format = migrate::DetectPackageFormat(pkg, &why);
  Value latest;
  if (const PackageEvent* e = engine::LatestEvent(pkg)) {
    latest = EventValue(e->type, e->outcome, e->timestamp);
  }
  Value components = Value::MakeArray();
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) {
      Value charts = Value::MakeArray();
      if (c.installed_charts) {
        for (const InstalledChart& ch : *c.installed_charts) {
          charts.array().push_back(Value::MakeObject({{"namespace", Value::String(ch.namespace_)},
                                                      {"chartName", Value::String(ch.chart_name)},
                                                      {"status", Value::String(ch.status)}}));
        }
      }
      Value last;
      if (c.last_event) last = EventValue(c.last_event->type, c.last_event->outcome, c.last_event->timestamp);
      components.array().push_back(Value::MakeObject({{"name", Value::String(c.name)},
                                                      {"status", Value::String(c.status)},
                                                      {"lastEvent", std::move(last)},
                                                      {"charts", std::move(charts)}}));
    }
  }
  const std::string secret_name = in.is_secret ? std::string(ObjectName(in.object))
                                               : PackageSecretName(pkg.name, pkg.namespace_override);
  Value report = Value::MakeObject({
      {"kind", Value::String("package")},
      {"source", Value::String(in.label)},
      {"secretName", Value::String(secret_name)},
      {"name", Value::String(pkg.name)},
      {"version", Value::String(std::string(metadata ? metadata->StringOr("version") : ""))},
      {"format", Value::String(std::string(format))},
      {"codec", Value::String(compact::LooksCompact(in.payload) ? "compact" : "json")},
      {"zarfReadable", Value::Bool(ZarfCannotRead(in.payload).empty())},
      {"formatEvidence", Value::String(why)},
      {"generation", Value::Int(pkg.generation)},
      {"cliVersion", Value::String(pkg.cli_version)},
      {"secretBytes", Value::Int(static_cast<std::int64_t>(size))},
      {"limitBytes", Value::Int(static_cast<std::int64_t>(kSecretSizeLimit))},
      {"headroomBytes", Value::Int(static_cast<std::int64_t>(kSecretSizeLimit) -
                                   static_cast<std::int64_t>(size))},
      {"events", Value::Int(static_cast<std::int64_t>(pkg.events.size()))},
      // An event is an object, or null when there is none (the table says Unknown).
      {"latestEvent", latest},
      {"components", std::move(components)},
  });
  if (const std::string_view note = ZarfCannotRead(in.payload); !note.empty()) {
    report.Set("zarfNote", Value::String(std::string(note)));
  }
  return report;
}

void PrintPackageTable(const Value& r, std::ostream& out) {
  // Each value escaped whole (a line feed in a name cannot start a fake row).
  const auto str = [&](const char* k) { return TerminalText(r.StringOr(k)); };
  const auto num = [&](const char* k) { return r.Find(k)->number_raw(); };
  out << "PACKAGE " << str("name") << "  version " << (str("version").empty() ? "-" : str("version"))
      << "  secret " << str("secretName") << "\n";
  out << "  source:       " << str("source") << "\n";
  out << "  format:       " << str("format") << " (" << str("formatEvidence") << "), codec "
      << str("codec") << "\n";
  if (!str("zarfNote").empty()) out << "  zarf:         CANNOT READ this Secret: " << str("zarfNote") << "\n";
  const double used = std::stod(num("secretBytes")) * 100.0 / static_cast<double>(kSecretSizeLimit);
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", used);
  out << "  secret size:  " << num("secretBytes") << " of " << num("limitBytes") << " bytes (" << pct
      << " used, headroom " << num("headroomBytes") << ")\n";
  const Value* latest = r.Find("latestEvent");
  out << "  latest event: "
      << (latest->is_null() ? std::string(kOutcomeUnknown)
                            : TerminalText(latest->StringOr("type")) + "/" +
                                    TerminalText(latest->StringOr("outcome")) + " at " +
                                    TerminalText(latest->StringOr("timestamp")))
      << "  (" << num("events") << " events stored)\n";
  out << "  generation:   " << num("generation") << "  cli " << str("cliVersion") << "\n";
  const auto& comps = r.Find("components")->array();
  if (comps.empty()) {
    out << "  components:   none deployed\n";
    return;
  }
  std::size_t w = 9;
  for (const Value& c : comps) w = std::max(w, TerminalText(c.StringOr("name")).size());
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s  %-10s  %-22s  %s\n", static_cast<int>(w), "COMPONENT",
                "STATUS", "LAST EVENT", "CHARTS");
  out << line;
  for (const Value& c : comps) {
    const Value* last = c.Find("lastEvent");
    std::string ev = last->is_null() ? std::string(kOutcomeUnknown)
                                     : TerminalText(last->StringOr("type")) + "/" +
                                           TerminalText(last->StringOr("outcome"));
    std::string charts;
    for (const Value& ch : c.Find("charts")->array()) {
      if (!charts.empty()) charts += ", ";
      charts += TerminalText(ch.StringOr("namespace")) + "/" + TerminalText(ch.StringOr("chartName"));
      if (!ch.StringOr("status").empty()) charts += " (" + TerminalText(ch.StringOr("status")) + ")";
    }
    const std::string status = c.StringOr("status").empty() ? "-" : TerminalText(c.StringOr("status"));
    std::snprintf(line, sizeof line, "  %-*s  %-10s  %-22s  ", static_cast<int>(w),
                  TerminalText(c.StringOr("name")).c_str(), status.c_str(), ev.c_str());
    out << line << (charts.empty() ? "-" : charts) << "\n";
  }
}

Value StateReport(const InputObject& in, Value state, bool show_secrets, std::size_t size) {
  if (!show_secrets) RedactCredentials(&state);
  return Value::MakeObject({{"kind", Value::String("init-state")},
                            {"source", Value::String(in.label)},
                            {"secretBytes", Value::Int(static_cast<std::int64_t>(size))},
                            {"credentials", Value::String(show_secrets ? "shown" : "redacted")},
                            {"state", std::move(state)}});
}

void PrintStateTable(const Value& r, std::ostream& out) {
  out << "INIT STATE  (" << r.StringOr("source") << ", " << r.Find("secretBytes")->number_raw()
      << " bytes; credentials " << r.StringOr("credentials") << ")\n";
  std::string body;
  json::AppendIndentedJson(&body, *r.Find("state"), "  ", 1);
  out << "  " << body << "\n";
}

}  // namespace

int RunInspect(const InspectOptions& options, std::ostream& raw_out, std::ostream& err) {
  // Names and values come from Secrets: a table never passes their control
  // characters to the terminal.
  TableStream table(raw_out, options.output == "table");
  std::ostream& out = table.stream();
  if (options.output != "table" && options.output != "json" && options.output != "yaml") {
    err << "error: -o must be table, json or yaml, not '" << options.output << "'\n";
    return kExitUsage;
  }
  Value reports = Value::MakeArray();
  const bool failed = ForEachObject(options.files, err, [&](const InputObject& in) -> Status {
    if (in.payload_kind == PayloadKind::kState) {
      auto payload = json::ParseJson(in.payload);
      if (!payload.ok()) return payload.status().WithContext("payload");
      // A credential of the wrong kind is an error here as in `migrate`.
      ZS_RETURN_IF_ERROR(CheckCredentialKinds(*payload).WithContext("payload"));
      reports.array().push_back(
          StateReport(in, std::move(payload).value(), options.show_secrets, in.payload.size()));
      return Status::OK();
    }
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
    std::size_t size = in.payload.size();
    if (in.is_secret) {
      auto s = SecretDataSize(in.object);
      if (s.ok()) size = *s;
    }
    reports.array().push_back(PackageReport(in, pkg, size));
    if (size >= kSecretWarnBytes) {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%",
                    100.0 * static_cast<double>(size) / static_cast<double>(kSecretSizeLimit));
      err << "warning: " << TerminalText(in.label) << ": the Secret is " << size << " bytes, " << pct
          << " of the " << kSecretSizeLimit << "-byte limit; "
          << (size > kSecretSizeLimit ? "the API server refuses a Secret this large"
                                      : "the next deploys may not fit (zarf-state size shows how "
                                        "many events still do)")
          << "\n";
    }
    return Status::OK();
  });
  if (options.output == "json") {
    std::string s;
    json::AppendIndentedJson(&s, reports, "  ");
    out << s << "\n";
  } else if (options.output == "yaml") {
    out << yaml::Write(reports);
  } else {
    bool first = true;
    for (const Value& r : reports.array()) {
      if (!first) out << "\n";
      first = false;
      if (r.StringOr("kind") == "package") {
        PrintPackageTable(r, out);
      } else {
        PrintStateTable(r, out);
      }
    }
  }
  return failed ? kExitSomeFailed : kExitOk;
}

void RegisterInspect(CLI::App* app, int* exit_code) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* cmd = app->add_subcommand(
      "inspect", "Show each package (or the init state, redacted) in Secrets, a List or bare JSON");
  CLI::Option* files =
      cmd->add_option("-f,--filename", options->files, "Input file (JSON or YAML); '-' for stdin")
          ->default_val(std::vector<std::string>{"-"});
  AddOutputOption(cmd, &options->output, {"table", "json", "yaml"});
  cmd->add_flag("--show-secrets", options->show_secrets,
                "Print the init state's credentials instead of [REDACTED]");
  // The init state: read too.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/true);
  cmd->callback([options, cluster, exit_code] {
    if (!PrepareCommandInput(*cluster, &options->files, "inspect", exit_code)) return;
    *exit_code = RunInspect(*options, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
