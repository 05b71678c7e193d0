#include "cli/migrate_cmd.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "compact/compact.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "yaml/yaml.h"
#include "migrate/migrate.h"
#include "cli/cluster_input.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "kube/input.h"
#include "cli/migrate_report.h"
#include "cli/progress.h"
#include "io/state_file.h"
#include "base/base64.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

std::string ObjectTitle(const InputObject& in) {
  if (!in.is_secret) return in.label;
  const std::string_view ns = ObjectNamespace(in.object);
  return (ns.empty() ? std::string() : std::string(ns) + "/") + std::string(ObjectName(in.object));
}

// One object migrated: the Secret to write back, or for a bare payload its
// bytes (JSON) / value. The Secret's payload is kept apart, in `data_bytes`:
// its `data.<data_key>` is "" until written, and the writer encodes the
// base64 straight into its output (the bulk of the Secret, never held in
// the tree nor copied).
struct Migrated {
  Value object;
  std::string_view data_key;
  std::string data_bytes;
  std::string bare_bytes;
};

// A package whose JSON Secret does not fit and that may not go compact
// (no --codec auto|compact): Zarf would stop seeing it, so it is left out.
Status FitsOnlyCompact(const std::string& title, const StoredPackage& stored) {
  return Status::TooLarge(
      title + ": as JSON its package data is " + std::to_string(stored.json_bytes) +
      " bytes, and the Secret over the API server's limit of " +
      std::to_string(kSecretSizeLimit) + "; it fits only with the compact codec (" +
      std::to_string(stored.secret_bytes) + " bytes), which no Zarf release reads or lists: "
      "Zarf could no longer list, remove or prune the package. Left out; --codec auto stores "
      "it compact anyway");
}

// Consumes `in` (its object moves into the result, its payload is freed).
// `compact_allowed`: --codec auto|compact was given.
Result<Migrated> MigrateObject(InputObject& in, const migrate::Target& target,
                               const StoreOptions& store, bool compact_allowed, bool dry_run,
                               MigrateObjectRow* o) {
  migrate::MigratedPayload m;
  if (in.payload_kind == PayloadKind::kPackage && compact::LooksCompact(in.payload)) {
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
    ZS_ASSIGN_OR_RETURN(m, migrate::MigratePackage(pkg, target));
    m.report.bytes_before = in.payload.size();
  } else {
    ZS_ASSIGN_OR_RETURN(m, migrate::MigratePayload(in.payload, in.payload_kind, target,
                                                   in.payload.capacity() - in.payload.size()));
  }
  in.payload = std::string();  // batches are large: free each input as it is done
  Migrated out;
  if (in.is_secret) {
    // A dry run stores as a real run does (the report shows the codec and
    // the bytes it writes), then drops the result.
    out.object = std::move(in.object);
    if (in.payload_kind == PayloadKind::kPackage) {
      ZS_ASSIGN_OR_RETURN(StoredPackage stored, StorePackageJsonApart(&out.object, &m.bytes, store));
      if (stored.codec == PackageCodec::kCompact && !compact_allowed) {
        return FitsOnlyCompact(o->name, stored);
      }
      o->codec = stored.codec == PackageCodec::kCompact ? "compact" : "json";
      out.data_key = stored.data_key;
      m.report.bytes_after = stored.payload_bytes;
      if (!stored.warning.empty()) {
        m.report.warnings.push_back(stored.warning);
        o->store_warning = stored.warning;
      }
    } else {
      SetSecretValue(&out.object, kStateDataKey, "");
      out.data_key = kStateDataKey;
      ZS_ASSIGN_OR_RETURN(std::size_t size,
                          SecretDataSize(out.object, kStateDataKey, m.bytes.size()));
      if (size > kSecretSizeLimit) {
        return Status::TooLarge("state Secret would hold " + std::to_string(size) +
                                " bytes of data, over the API server's limit of " +
                                std::to_string(kSecretSizeLimit));
      }
    }
    if (dry_run) {
      out.object = Value();
    } else {
      out.data_bytes = std::move(m.bytes);
    }
  } else {
    out.bare_bytes = std::move(m.bytes);
  }
  o->report = std::move(m.report);
  return out;
}

// Writes the migrated objects of one input in the input's own form, as they
// come: a List of JSON is streamed item by item (it can be hundreds of MiB),
// YAML Lists are written whole at the end. `sink` receives the text.
class ManifestWriter {
 public:
  // Text is handed to the sink once this much is pending. Small enough that
  // the buffer stays the same few pages from item to item (a Secret of a
  // large package is written whole and flushed at once); a larger one only
  // touches more fresh memory, at a page fault per 4 KiB.
  static constexpr std::size_t kFlushBytes = std::size_t{64} << 10;

  ManifestWriter(const Input& input, TextFormat format, std::function<void(std::string&)> sink)
      : input_(input), format_(format), sink_(std::move(sink)) {}

  // Called by the first Add or by End: a streamed List's header is known
  // only once its first item has been read.
  void Begin() {
    if (begun_) return;
    begun_ = true;
    if (!is_list() || format_ != TextFormat::kJson) return;
    buf_.push_back('{');
    for (const json::Member& m : envelope().object()) {
      if (m.first == "items") break;
      Member(m);
    }
    Separator();
    json::AppendGoString(&buf_, "items");
    buf_.append(": ");
  }

  void Add(Migrated m) {
    Begin();
    if (yaml_list()) {
      yaml_items_.push_back(m.object.is_null() ? BareValue(m) : WholeSecret(std::move(m)));
      return;
    }
    if (is_list()) {
      buf_.append(items_ == 0 ? "[\n" : ",\n");
      buf_.append(8, ' ');
      if (m.object.is_null()) {
        json::AppendIndentedJson(&buf_, BareValue(m), "    ", 2);
      } else {
        AppendSecretJson(m, 2);
      }
    } else if (format_ == TextFormat::kYaml) {
      if (items_ > 0) buf_.append("---\n");
      buf_ += m.object.is_null() ? yaml::Write(BareValue(m)) : yaml::Write(WholeSecret(std::move(m)));
    } else if (m.object.is_null()) {
      buf_ += m.bare_bytes;  // exactly what Zarf writes
      buf_.push_back('\n');
    } else {
      AppendSecretJson(m, 0);
      buf_.push_back('\n');
    }
    ++items_;
    if (buf_.size() >= kFlushBytes) Flush();
  }

  void End() {
    Begin();
    if (yaml_list()) {
      Value list = input_.list_envelope;
      list.Find("items")->array() = std::move(yaml_items_);
      buf_ += yaml::Write(list);
    } else if (is_list()) {
      buf_.append(items_ == 0 ? "[]" : "\n    ]");
      bool after = false;
      for (const json::Member& m : envelope().object()) {
        if (after) Member(m);
        after = after || m.first == "items";
      }
      buf_.append("\n}\n");
    }
    Flush();
  }

 private:
  // Several objects are written as one List, never as JSON texts one after
  // another; YAML documents without a List around them stay documents.
  bool is_list() const {
    return input_.list_envelope.is_object() || (input_.is_list && format_ == TextFormat::kJson);
  }
  bool yaml_list() const {
    return format_ == TextFormat::kYaml && input_.list_envelope.is_object();
  }
  // The input's List, or for several documents the List kubectl prints.
  const Value& envelope() const {
    static const Value kList = Value::MakeObject(
        {{"apiVersion", Value::String("v1")},
         {"items", Value::MakeArray()},
         {"kind", Value::String("List")},
         {"metadata", Value::MakeObject({{"resourceVersion", Value::String("")}})}});
    return input_.list_envelope.is_object() ? input_.list_envelope : kList;
  }
  void Separator() {
    if (wrote_member_) buf_.push_back(',');
    wrote_member_ = true;
    buf_.append("\n    ");
  }
  void Member(const json::Member& m) {
    Separator();
    json::AppendGoString(&buf_, m.first);
    buf_.append(": ");
    json::AppendIndentedJson(&buf_, m.second, "    ", 1);
  }
  // The Secret as kubectl prints it, indented from `depth`, its payload's
  // base64 encoded into place.
  void AppendSecretJson(const Migrated& m, int depth) {
    if (m.data_key.empty()) {  // nothing kept apart
      json::AppendIndentedJson(&buf_, m.object, "    ", depth);
      return;
    }
    const Value* data = m.object.Find("data");
    const Value* at = data != nullptr ? data->Find(m.data_key) : nullptr;
    if (at == nullptr) {  // no placeholder (the store always leaves one): the value set
      json::AppendIndentedJson(&buf_, WholeSecret(m), "    ", depth);
      return;
    }
    const json::SplicedValue payload{at, [&m](std::string* out) {
                                       out->push_back('"');
                                       Base64EncodeAppend(out, m.data_bytes);
                                       out->push_back('"');
                                     }};
    json::AppendIndentedJson(&buf_, m.object, "    ", depth, payload);
  }
  // The Secret's tree with its payload's base64 in place, for YAML.
  static Value WholeSecret(Migrated m) {
    if (!m.data_key.empty()) SetSecretValue(&m.object, m.data_key, m.data_bytes);
    return std::move(m.object);
  }
  static Value BareValue(const Migrated& m) {
    Result<Value> v = json::ParseJson(m.bare_bytes);  // our own output: it parses
    return v.ok() ? std::move(*v) : Value();
  }
  void Flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }

  const Input& input_;
  TextFormat format_;
  std::function<void(std::string&)> sink_;
  std::string buf_;
  std::vector<Value> yaml_items_;
  std::size_t items_ = 0;
  bool begun_ = false;
  bool wrote_member_ = false;
};


// The failure as migrate prints it: its message after its code's name
// ("IOError: ..."), as the report names a failed object's; the code kept.
Status WithCodeName(const Status& s) {
  std::string name = s.ToString();  // "<code name>: <message>"
  name.resize(name.size() - s.message().size() - 2);
  return s.WithContext(name);
}

// What the flags ask for, checked.
struct MigratePlan {
  MigrateOptions options;  // out_file and report_file "" for standard output
  bool report_to_stdout = false;
  migrate::Target target;
  StoreOptions store;
  bool compact_allowed = false;
  TextFormat format = TextFormat::kJson;  // the manifests'
};

// `given` checked and resolved: a Usage status naming the flag that is
// wrong or the two that conflict.
Result<MigratePlan> PlanMigration(const MigrateOptions& given) {
  MigratePlan plan;
  // `-` is standard output, for --out and --report alike: --out - is the
  // default; --report - needs stdout free of manifests.
  MigrateOptions& options = plan.options;
  options = given;
  if (options.out_file == "-") options.out_file.clear();
  plan.report_to_stdout = options.report_file == "-";
  if (plan.report_to_stdout) options.report_file.clear();
  if (plan.report_to_stdout && !options.dry_run && options.out_file.empty()) {
    return Status::Usage(
        "--report -: standard output carries the manifests; write them with --out FILE, or "
        "give --dry-run");
  }
  Result<migrate::Target> target = migrate::ParseTarget(options.to);
  if (!target.ok()) return Status::Usage(target.status().message());
  plan.target = *target;
  const bool to_v2 = target->package == migrate::kNewestPackageShape;
  // Without --codec, a package goes compact never: under --to v2 one whose
  // JSON no longer fits is refused (FitsOnlyCompact), not hidden from Zarf.
  Result<PackageCodec> codec =
      ParsePackageCodec(!options.codec.empty() ? options.codec : to_v2 ? "auto" : "json");
  plan.compact_allowed = !options.codec.empty();
  if (!codec.ok()) return Status::Usage(codec.status().WithContext("--codec").message());
  // -o is the manifests' format and --report-format the report's, with
  // --dry-run too (which writes no manifests, but still checks -o).
  const std::string manifest_format = options.output.empty() ? "json" : options.output;
  if (manifest_format != "json" && manifest_format != "yaml") {
    return Status::Usage(
        "-o must be json or yaml (the manifests' format; the report's is --report-format), "
        "not '" + options.output + "'");
  }
  const std::string& report_format = options.report_format;
  if (report_format != "table" && report_format != "json" && report_format != "yaml") {
    return Status::Usage("--report-format must be table, json or yaml, not '" + report_format +
                         "'");
  }
  plan.store.codec = *codec;
  plan.format = manifest_format == "yaml" ? TextFormat::kYaml : TextFormat::kJson;
  return plan;
}

// Migrates every object of `file` into `report`, writing the manifests
// (unless a dry run) to `out_file`, or to `out` when it is null, as they
// are read. Returns whether the file or one of its objects failed (said in
// the report, not on `err`).
bool MigrateFile(const MigratePlan& plan, const std::string& file, OutputFile* out_file,
                 std::ostream& out, std::ostream& err, MigrateReport* report) {
  const MigrateOptions& options = plan.options;
  std::vector<MigrateObjectRow>& outcomes = report->objects;
  bool failed = false;
  Input header;
  ManifestWriter writer(header, plan.format, [&](std::string& chunk) {
    if (options.dry_run) return;
    if (out_file) {
      (void)out_file->Append(chunk);  // sticky: Commit reports it
    } else {
      out << chunk;
    }
  });
  std::size_t count = 0;
  Progress progress(err, ProgressTitle("migrate", file, options.files), options.progress);
  auto migrate_one = [&](InputObject in) -> Status {
    MigrateObjectRow o;
    o.name = ObjectTitle(in);  // before MigrateObject consumes `in`
    o.source = in.label;
    if (!in.error.ok()) {
      o.error = in.error.ToString();
    } else {
      o.kind = in.payload_kind == PayloadKind::kPackage ? "package" : "state";
      Result<Migrated> m =
          MigrateObject(in, plan.target, plan.store, plan.compact_allowed, options.dry_run, &o);
      if (m.ok()) {
        if (!options.dry_run) writer.Add(std::move(*m));
      } else {
        o.error = m.status().ToString();
        o.report.reset();
      }
    }
    failed = failed || !o.error.empty();
    outcomes.push_back(std::move(o));
    ++count;
    progress.Update(count, "objects");
    return Status::OK();
  };
  // Objects are migrated and written as they are read: a List of any size
  // is never held whole, in or out.
  Result<ObjectInput> input = ObjectInput::Open(file);
  if (!input.ok()) {
    outcomes.push_back(
        {file, file, "", std::nullopt, "", "", WithLimitHint(input.status()).ToString()});
    return true;
  }
  const Status read = input->Read(&header, migrate_one);
  progress.Finish();
  if (!read.ok()) {
    // The objects read before the error are migrated and in the output;
    // the file is reported as failed from that point on.
    failed = true;
    outcomes.push_back({file, file, "", std::nullopt, "", "", WithLimitHint(read).ToString()});
  }
  ReportSkipped(header, file, err);
  writer.End();
  return failed;
}

// After the manifests: commits `out_file` (dropped instead when `failed`:
// --out replaces a file only with the complete set) or flushes `out`, then
// writes the report where the flags send it. The first failure, or
// FailureReported() when only an object failed (the report says which).
CommandStatus FinishMigration(const MigratePlan& plan, const MigrateReport& report,
                              const std::string& rendered, bool failed,
                              std::unique_ptr<OutputFile> out_file, std::ostream& out,
                              std::ostream& err) {
  const MigrateOptions& options = plan.options;
  // The manifests first: a report must not read as a success when they did
  // not arrive whole.
  Status written;
  if (out_file) {
    if (failed) {
      // Some input was missing, cut or refused: the manifests are not the
      // complete set, and --out replaces a file only with a complete one.
      out_file.reset();  // removes the unnamed or temp file
      written = Status::IOError("--out " + options.out_file +
                                ": not written, since some input failed (any existing file is "
                                "left as it was)");
    } else {
      written = out_file->Commit();
    }
  } else {
    written = FlushOutput(out, "standard output");
  }
  if (failed) {
    // A failing run's report is its error: on stderr, never on stdout nor
    // in --report FILE (which keeps what it held).
    err << rendered;
  } else if (!options.report_file.empty()) {
    if (Status s = WriteOutputFile(options.report_file, rendered); !s.ok()) {
      if (!written.ok()) PrintError(err, WithCodeName(written).message());
      return WithCodeName(s);
    }
    // The report is in a file: what Zarf will not see is still said here.
    for (const MigrateObjectRow& o : report.objects) {
      if (!o.store_warning.empty()) err << "warning: " << TerminalText(o.store_warning) << "\n";
    }
  } else if (plan.report_to_stdout) {
    out << rendered;
    if (written.ok()) written = FlushOutput(out, "standard output");
  } else {
    err << rendered;
  }
  if (!written.ok()) return WithCodeName(written);
  return CommandStatus::FailedIf(failed);
}

}  // namespace

CommandStatus RunMigrate(const MigrateOptions& given, std::ostream& out, std::ostream& err) {
  ZS_ASSIGN_OR_RETURN(const MigratePlan plan, PlanMigration(given));
  const MigrateOptions& options = plan.options;
  MigrateReport report;
  report.target = options.to;
  std::unique_ptr<OutputFile> out_file;
  if (!options.out_file.empty() && !options.dry_run) {
    Result<std::unique_ptr<OutputFile>> f = OutputFile::Create(options.out_file);
    if (!f.ok()) return WithCodeName(f.status());
    out_file = std::move(*f);
  }
  bool failed = false;
  for (const std::string& file : options.files) {
    failed |= MigrateFile(plan, file, out_file.get(), out, err, &report);
  }
  const std::string rendered =
      RenderMigrateReport(report, options.report_format, options.no_headers);
  if (!options.dry_run) {
    return FinishMigration(plan, report, rendered, failed, std::move(out_file), out, err);
  }
  if (failed) {
    err << rendered;  // a failing run's report is its error
    return CommandStatus::FailureReported();
  }
  // The report is the output: to --report FILE when named, else stdout.
  if (!options.report_file.empty()) {
    if (Status s = WriteOutputFile(options.report_file, rendered); !s.ok()) {
      return WithCodeName(s);
    }
  } else {
    out << rendered;
    ZS_RETURN_IF_ERROR(FlushOutput(out, "standard output"));
  }
  return CommandStatus::FailedIf(failed);
}

void RegisterMigrate(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<MigrateOptions>();
  CLI::App* cmd = app->add_subcommand(
      "migrate", "Upgrade (or downgrade) every state object of the input to another shape");
  CLI::Option* files =
      cmd->add_option("-f,--filename", o->files, "Input file (JSON or YAML); '-' for stdin")
          ->default_val(std::vector<std::string>{"-"});
  cmd->add_option("--to", o->to,
                  "v2 | legacy | P1..P10 | S1..S14 | a Zarf release tag such as v0.45.0")
      ->default_val("v2");
  cmd->add_flag("--dry-run", o->dry_run,
                "Write only the report (to stdout, or to --report FILE)");
  cmd->add_option("-o,--output", o->output, "The manifests' format: json | yaml")
      ->check(CLI::IsMember({"json", "yaml"}))
      ->default_val("json");
  cmd->add_option("--report-format", o->report_format,
                  "The report's format, with --dry-run too: table | json | yaml")
      ->check(CLI::IsMember({"table", "json", "yaml"}))
      ->default_val("table");
  cmd->add_flag("--no-headers", o->no_headers, "Leave the header row out of the report's table");
  cmd->add_option("--report", o->report_file,
                  "Write the report to FILE instead of stderr ('-': stdout, with --out or --dry-run)");
  cmd->add_option("--out", o->out_file,
                  "Write the manifests to FILE (atomically, mode 0600) instead of stdout ('-')");
  cmd->add_option("--codec", o->codec,
                  "Package Secrets: json | compact | auto (default: JSON; a package that fits only "
                  "compact fails)");
  AddQuietFlag(cmd, &o->quiet);
  // The init state: read too.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/true);
  cmd->callback([o, cluster, outcome] {
    // Writes to the cluster stay explicit: the manifests go to a file, for
    // `kubectl replace -f` (a terminal would also show the credentials).
    if (cluster->enabled && !o->dry_run && o->out_file.empty()) {
      *outcome = Status::Usage(
          "migrate --cluster needs --dry-run or --out FILE (then apply it with kubectl "
          "replace -f FILE)");
      return;
    }
    *outcome = PrepareCommandInput(*cluster, &o->files, "migrate");
    if (!outcome->ok()) return;
    o->progress = ProgressWanted(o->quiet);
    *outcome = RunMigrate(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
