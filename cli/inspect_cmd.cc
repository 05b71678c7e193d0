#include "cli/inspect_cmd.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <variant>

#include "json/json_reader.h"
#include "cli/cluster_input.h"
#include "cli/common.h"
#include "cli/empty_result.h"
#include "cli/event_record.h"
#include "cli/object_names.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "base/terminal_text.h"
#include "compact/compact.h"
#include "engine/cache.h"
#include "engine/derived_status.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "migrate/format.h"
#include "cli/cluster_input.h"
#include "cli/common.h"
#include "cli/event_record.h"
#include "cli/output.h"
#include "cli/state_record.h"
#include "base/terminal_text.h"
#include "model/credentials.h"
#include "model/model_json.h"

namespace zs::tools {
namespace {

using json::Value;

// The formats inspect prints.
const std::vector<std::string> kFormats = {"table", "wide", "json", "yaml", "name"};

struct ChartRow {
  std::string namespace_;
  std::string chart_name;
  std::string status;
};

struct ComponentRow {
  std::string name;
  std::string status;  // the deprecated `status` field
  std::optional<EventRecord> last_event;
  std::vector<ChartRow> charts;
  engine::ComponentState state;
};

// One package (docs/cli.md, "zarf-state inspect").
struct PackageReport {
  std::string source, secret_name, name, version, format, format_evidence, codec;
  std::string key;  // the table's name (cli/object_names.h)
  std::string zarf_note;  // why no Zarf release reads it; "" when one does
  std::int64_t generation = 0;
  std::string cli_version;
  std::int64_t secret_bytes = 0;
  std::int64_t events = 0;
  std::optional<EventRecord> latest_event;
  engine::PackageState state;  // its `latest` and components are not kept
  std::vector<ComponentRow> components;

  std::int64_t headroom() const { return static_cast<std::int64_t>(kSecretSizeLimit) - secret_bytes; }
  Value ToDocument() const;
};

// The init state (the zarf-state Secret), credentials redacted unless asked.
struct InitStateReport {
  std::string source;
  std::string name;  // the Secret's name, or "zarf-state" for a bare payload
  std::int64_t secret_bytes = 0;
  bool credentials_shown = false;
  Value state;

  Value ToDocument() const {
    return Value::MakeObject({{"kind", Value::String("init-state")},
                              {"source", Value::String(source)},
                              {"secretBytes", Value::Int(secret_bytes)},
                              {"credentials", Value::String(credentials_shown ? "shown" : "redacted")},
                              {"state", state}});
  }
};

using Report = std::variant<PackageReport, InitStateReport>;

Value PackageReport::ToDocument() const {
  Value comps = Value::MakeArray();
  for (const ComponentRow& c : components) {
    Value charts = Value::MakeArray();
    for (const ChartRow& ch : c.charts) {
      charts.array().push_back(Value::MakeObject({{"namespace", Value::String(ch.namespace_)},
                                                  {"chartName", Value::String(ch.chart_name)},
                                                  {"status", Value::String(ch.status)}}));
    }
    comps.array().push_back(Value::MakeObject({{"name", Value::String(c.name)},
                                               {"status", Value::String(c.status)},
                                               {"lastEvent", EventDocument(c.last_event)},
                                               {"state", StateDocument(c.state)},
                                               {"charts", std::move(charts)}}));
  }
  Value v = Value::MakeObject({
      {"kind", Value::String("package")},
      {"source", Value::String(source)},
      {"secretName", Value::String(secret_name)},
      {"name", Value::String(name)},
      {"version", Value::String(version)},
      {"format", Value::String(format)},
      {"codec", Value::String(codec)},
      {"zarfReadable", Value::Bool(zarf_note.empty())},
      {"formatEvidence", Value::String(format_evidence)},
      {"generation", Value::Int(generation)},
      {"cliVersion", Value::String(cli_version)},
      {"secretBytes", Value::Int(secret_bytes)},
      {"limitBytes", Value::Int(static_cast<std::int64_t>(kSecretSizeLimit))},
      {"headroomBytes", Value::Int(headroom())},
      {"events", Value::Int(events)},
      {"latestEvent", EventDocument(latest_event)},
      {"state", StateDocument(state)},
      {"components", std::move(comps)},
  });
  if (!zarf_note.empty()) v.Set("zarfNote", Value::String(zarf_note));
  return v;
}

PackageReport PackageOf(const InputObject& in, const DeployedPackage& pkg, std::size_t size) {
  PackageReport r;
  const Value* metadata = pkg.data.Find("metadata");
  r.format = std::string(migrate::DetectPackageFormat(pkg, &r.format_evidence));
  r.source = in.label;
  r.secret_name = in.is_secret ? std::string(ObjectName(in.object))
                               : PackageSecretName(pkg.name, pkg.namespace_override);
  r.name = pkg.name;
  r.key = engine::PackageKey(pkg);
  r.version = metadata ? std::string(metadata->StringOr("version")) : "";
  r.codec = compact::LooksCompact(in.payload) ? "compact" : "json";
  r.zarf_note = std::string(ZarfCannotRead(in.payload));
  r.generation = pkg.generation;
  r.cli_version = pkg.cli_version;
  r.secret_bytes = static_cast<std::int64_t>(size);
  r.events = static_cast<std::int64_t>(pkg.events.size());
  r.latest_event = EventOf(engine::LatestEvent(pkg));
  r.state = engine::DerivePackageState(pkg);
  if (pkg.deployed_components) {
    for (std::size_t i = 0; i < pkg.deployed_components->size(); ++i) {
      const DeployedComponent& c = (*pkg.deployed_components)[i];
      ComponentRow row{c.name, c.status, EventOf(c.last_event), {}, r.state.components[i]};
      if (c.installed_charts) {
        for (const InstalledChart& ch : *c.installed_charts) {
          row.charts.push_back({ch.namespace_, ch.chart_name, ch.status});
        }
      }
      r.components.push_back(std::move(row));
    }
  }
  r.state.latest = nullptr;
  r.state.components.clear();
  return r;
}

std::string Percent(std::int64_t bytes) {
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%",
                100.0 * static_cast<double>(bytes) / static_cast<double>(kSecretSizeLimit));
  return pct;
}

// Joins `parts` with "," (no space: a cell stays one word for awk).
std::string Joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ",") + p;
  return OrDash(s);
}

Table ReportTable(const std::vector<Report>& reports, const Timestamp& now) {
  Table t({{"NAME"}, {"VERSION"}, {"SIZE"}, {"USED"}, {"LATEST"}, {"AGE"}, {"EVENTS"},
           {"COMPONENTS"}, {"SECRET", true}, {"FORMAT", true}, {"CODEC", true},
           {"HEADROOM", true}, {"GENERATION", true}, {"CLI", true}, {"COMPONENT STATUS", true},
           {"COMPONENT EVENTS", true}, {"CHARTS", true}, {"SOURCE", true}});
  for (const Report& report : reports) {
    if (const auto* s = std::get_if<InitStateReport>(&report)) {
      t.AddRow({s->name, "-", std::to_string(s->secret_bytes), Percent(s->secret_bytes), "-", "-",
                "-", "-", s->name, "init-state", "json",
                std::to_string(static_cast<std::int64_t>(kSecretSizeLimit) - s->secret_bytes), "-",
                "-", "-", "-", "-", s->source});
      continue;
    }
    const PackageReport& p = std::get<PackageReport>(report);
    std::vector<std::string> statuses, events, charts;
    for (const ComponentRow& c : p.components) {
      statuses.push_back(c.name + "=" + OrDash(c.status));
      events.push_back(c.name + "=" + EventCell(c.last_event));
      for (const ChartRow& ch : c.charts) {
        charts.push_back(ch.namespace_ + "/" + ch.chart_name +
                         (ch.status.empty() ? "" : " (" + ch.status + ")"));
      }
    }
    t.AddRow({p.key, OrDash(p.version), std::to_string(p.secret_bytes),
              Percent(p.secret_bytes), StateCell(p.state),
              p.latest_event ? FormatAge(p.latest_event->timestamp, now) : "-", std::to_string(p.events),
              std::to_string(p.components.size()), p.secret_name, p.format, p.codec,
              std::to_string(p.headroom()), std::to_string(p.generation),
              OrDash(p.cli_version), Joined(statuses), Joined(events),
              Joined(charts), p.source});
  }
  return t;
}

// A package Secret near or past the API server's limit: said on stderr
// whatever the format. One no Zarf release reads: said on stderr when
// `note_unreadable` (a table; a document carries zarfNote instead).
void Warn(const PackageReport& p, bool note_unreadable, std::ostream& err) {
  const auto size = static_cast<std::size_t>(p.secret_bytes);
  if (size >= kSecretWarnBytes) {
    err << "warning: " << TerminalText(p.source) << ": the Secret is " << size << " bytes, "
        << Percent(p.secret_bytes) << " of the " << kSecretSizeLimit << "-byte limit; "
        << (size > kSecretSizeLimit ? "the API server refuses a Secret this large"
                                    : "the next deploys may not fit (zarf-state size shows how "
                                      "many events still do)")
        << "\n";
  }
  if (note_unreadable && !p.zarf_note.empty()) {
    err << "warning: " << TerminalText(p.source) << ": Zarf CANNOT READ this Secret: "
        << TerminalText(p.zarf_note) << "\n";
  }
}

}  // namespace

CommandStatus RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(options.output, kFormats));
  auto now = ParseNow(options.now);
  if (!now.ok()) return Status::Usage(now.status().message());
  std::vector<Report> reports;
  const bool failed = ForEachObject(options.files, err, [&](const InputObject& in) -> Status {
    if (in.payload_kind == PayloadKind::kState) {
      auto payload = json::ParseJson(in.payload);
      if (!payload.ok()) return payload.status().WithContext("payload");
      // A credential of the wrong kind is an error here as in `migrate`.
      ZS_RETURN_IF_ERROR(CheckCredentialKinds(*payload).WithContext("payload"));
      InitStateReport r{in.label, in.is_secret ? std::string(ObjectName(in.object)) : "zarf-state",
                        static_cast<std::int64_t>(in.payload.size()), options.show_secrets,
                        std::move(payload).value()};
      if (!r.credentials_shown) RedactCredentials(&r.state);
      reports.push_back(std::move(r));
      return Status::OK();
    }
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
    std::size_t size = in.payload.size();
    if (in.is_secret) {
      auto s = SecretDataSize(in.object);
      if (s.ok()) size = *s;
    }
    PackageReport r = PackageOf(in, pkg, size);
    Warn(r, !options.output.structured(), err);
    reports.push_back(std::move(r));
    return Status::OK();
  });
  if (reports.empty() && !failed) SayNothingFound("Zarf state Secrets", options.files, err);
  if (options.output.structured()) {
    Value all = Value::MakeArray();
    for (const Report& r : reports) {
      all.array().push_back(std::visit([](const auto& x) { return x.ToDocument(); }, r));
    }
    PrintStructured(all, options.output.format, out);
  } else if (options.output.name()) {
    std::vector<std::string> names;
    for (const Report& r : reports) {
      if (const auto* p = std::get_if<PackageReport>(&r)) {
        names.push_back(PackageObjectName(p->secret_name, p->key));
      } else {
        names.push_back("secret/" + std::get<InitStateReport>(r).name);
      }
    }
    PrintUniqueNames(names, out);
  } else {
    ReportTable(reports, *now).Print(options.output, out);
  }
  return CommandStatus::FailedIf(failed);
}

void RegisterInspect(CLI::App* app, CommandStatus* outcome) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* cmd = app->add_subcommand(
      "inspect", "Show each package (or the init state, redacted) in Secrets, a List or bare JSON");
  CLI::Option* files =
      cmd->add_option("-f,--filename", options->files, "Input file (JSON or YAML); '-' for stdin")
          ->default_val(std::vector<std::string>{"-"});
  AddOutputOptions(cmd, &options->output, kFormats);
  cmd->add_option("--now", options->now, "Compute ages as of this RFC 3339 time (default: now)");
  cmd->add_flag("--show-secrets", options->show_secrets,
                "Print the init state's credentials instead of [REDACTED]");
  AddQuietFlag(cmd, &options->quiet);
  // The init state: read too.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/true);
  cmd->callback([options, cluster, outcome] {
    *outcome = PrepareCommandInput(*cluster, &options->files, "inspect");
    if (outcome->ok()) *outcome = RunInspect(*options, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
