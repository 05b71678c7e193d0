#include "cli/size_cmd.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "base/hex.h"
#include "compact/compact.h"
#include "json/go_json.h"
#include "cli/cluster_input.h"
#include "cli/common.h"
#include "io/standard_output.h"
#include "cli/empty_result.h"
#include "cli/object_names.h"
#include "cli/output.h"
#include "cli/process_limits.h"
#include "cli/progress.h"
#include "base/terminal_text.h"
#include "compact/gzip.h"
#include "engine/cache.h"
#include "kube/compact_figure.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "model/model_json.h"

namespace zs::tools {
namespace {

using json::Value;

const std::vector<std::string> kSizeFormats = {"table", "wide", "json", "yaml", "name"};

struct CodecSizes {
  std::size_t json = 0;
  std::size_t gzip = 0;
  bool gzip_measured = false;
  std::size_t compact = 0;
  // Why there is no compact size: the compact writer refused the package
  // (TooLarge: over the 16 MiB payload the reader decodes, or elements that
  // compress too well for its budget). A report, not a failure: the other
  // sizes stand.
  std::string compact_refused;
  bool compact_measured = false;  // false: not asked for (zstd level 19 is slow)
  // The package serialized for the compact codec, compressed by SealCompact
  // once the package is released (compact/compact.h, Prepare).
  std::optional<compact::Prepared> pending;
};

// The bytes base64 makes of `n` bytes.
std::size_t Base64Size(std::size_t n) { return (n + 2) / 3 * 4; }

// Stages the compact figure in `s`: the package serialized (SealCompact
// compresses it), or why the writer refuses the package.
Status AddCompact(const DeployedPackage& pkg, CodecSizes* s) {
  s->compact_measured = true;
  Result<compact::Prepared> p = compact::Prepare(pkg);
  if (p.ok()) {
    s->pending = std::move(p).value();
  } else if (p.status().code() == Status::Code::kTooLarge) {
    s->compact_refused = std::string(p.status().message());
  } else {
    return p.status();
  }
  return Status::OK();
}

// The compact figure AddCompact staged: the envelope's bytes, or why the
// writer refuses them.
Status SealCompact(CodecSizes* s) {
  if (!s->pending) return Status::OK();
  Result<std::string> c = compact::Seal(*s->pending);
  s->pending.reset();
  if (c.ok()) {
    s->compact = c->size();
  } else if (c.status().code() == Status::Code::kTooLarge) {
    s->compact_refused = std::string(c.status().message());
  } else {
    return c.status();
  }
  return Status::OK();
}

// One encoding of the package at a time: a package near the input's memory
// budget is never held twice over besides its JSON text.
Result<CodecSizes> Measure(const DeployedPackage& pkg, bool with_compact, bool with_gzip = true) {
  CodecSizes s;
  {
    const std::string j = EncodeDeployedPackage(pkg);
    s.json = j.size();
    if (with_gzip) {
      ZS_ASSIGN_OR_RETURN(const std::size_t gz, GzipSize(j));
      s.gzip = Base64Size(gz);
      s.gzip_measured = true;
    }
  }
  if (with_compact) ZS_RETURN_IF_ERROR(AddCompact(pkg, &s));
  return s;
}

// A typical event to grow the history with: the newest one, or a deploy.
PackageEvent TypicalEvent(const DeployedPackage& pkg) {
  if (!pkg.events.empty()) return pkg.events.back();
  PackageEvent e;
  e.type = std::string(kEventDeploy);
  e.outcome = std::string(kOutcomeSucceeded);
  e.timestamp = Timestamp::FromUnixNanos(1767225600123456789LL);
  const Value* md = pkg.data.Find("metadata");
  e.version = md ? std::string(md->StringOr("version")) : "";
  e.digest = pkg.digest;
  e.config_digest = "sha256:" + std::string(64, '0');
  return e;
}

// 64 pseudo-random hex digits: real digests do not compress, and probe
// events that repeat one would make the compressed codecs look too good.
std::string RandomHex(std::uint64_t* state) {
  std::string out;
  for (int i = 0; i < 64; ++i) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    out += HexDigit(static_cast<unsigned>(*state >> 60));
  }
  return out;
}

// Events added to measure what one more costs (PerEvent).
constexpr std::size_t kProbe = 32;

// The measures PerEvent divides: the package with its newest `kWindow`
// events (`base`; none when that is the whole package), and with `kProbe`
// events more (`grown`). Their compact figures are staged (AddCompact).
struct Probes {
  std::optional<CodecSizes> base;
  CodecSizes grown;
};

// Measures the package with its newest `kWindow` events only, then with
// `kProbe` added events that differ as real ones do (time, package digest,
// config digest): what one more event costs is then the same however long
// the history is (an event's cost hardly depends on events far back).
// `with_compact`: stage the compact figures too; `with_gzip`: measure gzip
// (the probe events' random digests make it most of a size run, so only an
// output that shows gzip's cost of an event asks for it). `pkg` is grown in
// place (no copy of a large package) and given back as it was.
Result<Probes> ProbeEvents(DeployedPackage* pkg, bool with_compact, bool with_gzip) {
  constexpr std::size_t kWindow = 64;
  const PackageEvent typical = TypicalEvent(*pkg);
  std::vector<PackageEvent> history = std::move(pkg->events);
  const std::size_t keep = std::min(history.size(), kWindow);
  pkg->events.assign(history.end() - static_cast<std::ptrdiff_t>(keep), history.end());
  Result<Probes> measured = [&]() -> Result<Probes> {
    Probes probes;
    if (keep < history.size()) {
      ZS_ASSIGN_OR_RETURN(probes.base, Measure(*pkg, with_compact, with_gzip));
    }
    PackageEvent e = typical;
    std::uint64_t rng = 20261130;
    for (std::size_t i = 0; i < kProbe; ++i) {
      e.timestamp = Timestamp::FromUnixNanos(e.timestamp.unix_nanos() + 61'000'000'007LL);
      e.config_digest = "sha256:" + RandomHex(&rng);
      if (i % 2 == 0) e.digest = "sha256:" + RandomHex(&rng);
      pkg->events.push_back(e);
    }
    ZS_ASSIGN_OR_RETURN(probes.grown, Measure(*pkg, with_compact, with_gzip));
    return probes;
  }();
  pkg->events = std::move(history);
  return measured;
}

// Bytes one more event costs under each codec, from the probes' staged
// measures (sealed here) and `whole`, the sealed measure of all of the
// package (the base when the probes have none).
Result<CodecSizes> PerEvent(Probes* probes, const CodecSizes& whole) {
  if (probes->base) ZS_RETURN_IF_ERROR(SealCompact(&*probes->base));
  ZS_RETURN_IF_ERROR(SealCompact(&probes->grown));
  const CodecSizes& base = probes->base ? *probes->base : whole;
  const CodecSizes& g = probes->grown;
  auto per = [&](std::size_t a, std::size_t b) {
    return std::max<std::size_t>(1, (b - std::min(a, b) + kProbe - 1) / kProbe);
  };
  const bool with_compact = whole.compact_measured;
  CodecSizes out;
  out.json = per(base.json, g.json);
  out.gzip = g.gzip_measured ? per(base.gzip, g.gzip) : 0;
  out.gzip_measured = g.gzip_measured;
  out.compact_measured = with_compact;
  if (!with_compact) return out;
  if (base.compact_refused.empty() && g.compact_refused.empty()) {
    out.compact = per(base.compact, g.compact);
  } else {
    out.compact_refused = base.compact_refused.empty() ? g.compact_refused : base.compact_refused;
  }
  return out;
}

std::int64_t Headroom(std::size_t bytes) {
  return static_cast<std::int64_t>(kSecretSizeLimit) - static_cast<std::int64_t>(bytes);
}

std::int64_t Fit(std::size_t bytes, std::size_t per_event) {
  const std::int64_t h = Headroom(bytes);
  return h <= 0 ? 0 : h / static_cast<std::int64_t>(per_event);
}

// One codec's figures for one Secret.
struct CodecFigures {
  std::size_t bytes = 0;
  std::size_t per_event = 0;
  Value ToDocument() const {
    return Value::MakeObject({{"bytes", Value::Int(static_cast<std::int64_t>(bytes))},
                              {"headroomBytes", Value::Int(Headroom(bytes))},
                              {"bytesPerEvent", Value::Int(static_cast<std::int64_t>(per_event))},
                              {"moreEventsFit", Value::Int(Fit(bytes, per_event))}});
  }
};

// One package Secret measured: a row of the table, an item of the json/yaml
// list. Two Secrets of one package (an override namespace) are two rows,
// told apart by `secret`.
struct SizeRow {
  std::string name;    // the package's
  std::string key;     // the table's name (cli/object_names.h)
  std::string secret;  // the Secret's name; "" for a bare payload
  std::string source;  // the input label
  std::size_t events = 0;
  std::optional<Timestamp> last_event;  // the newest event's time
  CodecFigures json, gzip;
  std::optional<CodecFigures> compact;  // none when not measured or refused
  std::string compact_refused;          // why the compact writer refused it
  bool compact_measured = false;
  std::size_t stored_payload_bytes = 0;  // the payload as the Secret holds it
  std::string zarf_note;                // stored compact: what Zarf cannot read

  Value ToDocument() const {
    Value v = Value::MakeObject(
        {{"name", Value::String(name)},
         {"secret", secret.empty() ? Value::Null() : Value::String(secret)},
         {"source", Value::String(source)},
         {"events", Value::Int(static_cast<std::int64_t>(events))},
         {"lastEventTime", ReportTimeValue(last_event)},
         {"limitBytes", Value::Int(static_cast<std::int64_t>(kSecretSizeLimit))},
         {"json", json.ToDocument()},
         {"gzipBase64", gzip.ToDocument()},
         {"compact", CompactDocument()}});
    if (!zarf_note.empty()) v.Set("zarfNote", Value::String(zarf_note));
    return v;
  }

  Value CompactDocument() const {
    if (compact) return compact->ToDocument();
    if (!compact_measured) {
      return Value::MakeObject({{"bytes", Value::Null()}, {"measured", Value::Bool(false)}});
    }
    return Value::MakeObject(
        {{"bytes", Value::Null()}, {"refused", Value::String(compact_refused)}});
  }
};

std::string Ratio(double a, double b) {
  char s[32];
  std::snprintf(s, sizeof s, "%.3f", a / b);
  return s;
}

void PrintSizeTable(const std::vector<SizeRow>& rows, const OutputOptions& output,
                    const Timestamp& now, std::ostream& out) {
  Table table({{"PACKAGE"}, {"SECRET"}, {"JSON"}, {"GZIP+B64"}, {"COMPACT"}, {"C/JSON"},
               {"C/GZIP"}, {"HEADROOM"}, {"EVENTS FIT"}, {"LAST EVENT"},
               {"EVENTS", true}, {"STORED", true}, {"BYTES/EVENT", true}, {"SOURCE", true}});
  for (const SizeRow& r : rows) {
    const double j = static_cast<double>(r.json.bytes), g = static_cast<double>(r.gzip.bytes);
    const std::string fit =
        std::to_string(Fit(r.json.bytes, r.json.per_event)) + "/" +
        (r.compact ? std::to_string(Fit(r.compact->bytes, r.compact->per_event)) : "-");
    const std::string per_event = std::to_string(r.json.per_event) + "/" +
                                  (r.compact ? std::to_string(r.compact->per_event) : "-");
    table.AddRow({r.key, OrDash(r.secret), std::to_string(r.json.bytes),
                  std::to_string(r.gzip.bytes),
                  r.compact ? std::to_string(r.compact->bytes) : "-",
                  r.compact ? Ratio(static_cast<double>(r.compact->bytes), j) : "-",
                  r.compact ? Ratio(static_cast<double>(r.compact->bytes), g) : "-",
                  std::to_string(Headroom(r.json.bytes)), fit, AgeOr(r.last_event, now),
                  std::to_string(r.events), r.zarf_note.empty() ? "json" : "compact", per_event,
                  r.source});
  }
  table.Print(output, out);
  // The notes a person needs; a script asking for --no-headers gets the rows
  // only, and no rows get no notes (the empty result is said on stderr).
  if (output.no_headers || rows.empty()) return;
  bool unmeasured = false;
  for (const SizeRow& r : rows) {
    unmeasured = unmeasured || !r.compact_measured;
    if (r.compact || !r.compact_measured) continue;
    out << TerminalText(r.name) << ": no compact size: the compact writer refuses it ("
        << TerminalText(r.compact_refused) << ")\n";
  }
  for (const SizeRow& r : rows) {
    if (r.zarf_note.empty()) continue;
    out << TerminalText(r.name) << ": stored compact, which Zarf CANNOT READ: "
        << TerminalText(r.zarf_note) << "\n";
  }
  out << "(HEADROOM: bytes left under " << kSecretSizeLimit
      << " as JSON; EVENTS FIT: more events that fit, json/compact)\n";
  if (unmeasured) {
    out << "(COMPACT: " << kCompactFigureRule << "; --compact measures every Secret)\n";
  }
  // Medians over the packages all codecs measured: the corpus figures
  // docs/performance.md quotes.
  std::vector<double> j, g, c, cg, cj;
  for (const SizeRow& r : rows) {
    if (!r.compact) continue;
    j.push_back(static_cast<double>(r.json.bytes));
    g.push_back(static_cast<double>(r.gzip.bytes));
    c.push_back(static_cast<double>(r.compact->bytes));
    cg.push_back(c.back() / g.back());
    cj.push_back(c.back() / j.back());
  }
  if (rows.size() < 2 || j.size() < 2) return;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  };
  char line[512];
  std::snprintf(line, sizeof line,
                "median over %zu packages: json %.0f, gzip+base64 %.0f, compact %.0f bytes; "
                "compact/gzip %.3f, compact/json %.3f (medians of per-package ratios)\n",
                j.size(), median(j), median(g), median(c), median(cg), median(cj));
  out << line;
}

// One package Secret measured. The compact figures (zstd level 19, some
// milliseconds a Secret) only as CompactFigureWanted says (kube/compact_figure.h),
// with `all_compact` for --compact: compressed once the package is released,
// so that the package and zstd's tables are never held at once.
// `gzip_per_event`: the output shows what an event costs as gzip (json and
// yaml do; the tables show gzip's size only).
Result<SizeRow> MeasureSecret(const InputObject& in, bool all_compact, bool gzip_per_event) {
  SizeRow row;
  row.zarf_note = std::string(ZarfCannotRead(in.payload));
  row.stored_payload_bytes = in.payload.size();
  row.source = in.label;
  if (in.is_secret) row.secret = std::string(ObjectName(in.object));
  CodecSizes sizes;
  Probes probes;
  {
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
    ZS_ASSIGN_OR_RETURN(sizes, Measure(pkg, false));
    if (CompactFigureWanted(in.payload, sizes.json, all_compact)) {
      ZS_RETURN_IF_ERROR(AddCompact(pkg, &sizes));
    }
    ZS_ASSIGN_OR_RETURN(probes, ProbeEvents(&pkg, sizes.compact_measured, gzip_per_event));
    row.name = pkg.name;
    row.key = engine::PackageKey(pkg);
    row.events = pkg.events.size();
    if (!pkg.events.empty()) row.last_event = pkg.events.back().timestamp;
  }
  // The package's memory back to the kernel before zstd takes its tables.
  if (sizes.compact_measured) ReleaseFreedMemory();
  ZS_RETURN_IF_ERROR(SealCompact(&sizes));
  ZS_ASSIGN_OR_RETURN(CodecSizes per, PerEvent(&probes, sizes));
  row.json = {sizes.json, per.json};
  row.gzip = {sizes.gzip, per.gzip};
  row.compact_measured = sizes.compact_measured;
  row.compact_refused =
      sizes.compact_refused.empty() ? per.compact_refused : sizes.compact_refused;
  if (row.compact_measured && row.compact_refused.empty()) {
    row.compact = CodecFigures{sizes.compact, per.compact};
  }
  return row;
}

// Warns on stderr about a Secret over 90% of the limit as stored, or says it
// is over `fail_above_percent` (0: no gate); true for the latter.
bool WarnNearLimit(const SizeRow& row, std::string_view label, double fail_above_percent,
                   std::ostream& err) {
  // The codec the Secret is stored in decides how close it is.
  const std::size_t stored = row.zarf_note.empty() ? row.json.bytes
                             : row.compact        ? row.compact->bytes
                                                  : row.stored_payload_bytes;
  const double percent = 100.0 * static_cast<double>(stored) / static_cast<double>(kSecretSizeLimit);
  const bool gate = fail_above_percent > 0 && percent > fail_above_percent;
  if (stored < kSecretWarnBytes && !gate) return false;
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", percent);
  std::ostringstream line;
  line << label << ": package " << row.name << " is " << stored << " bytes as stored ("
       << (row.zarf_note.empty() ? "json" : "compact") << "), " << pct << " of the "
       << kSecretSizeLimit << "-byte Secret limit";
  if (gate) {
    line << ", over --fail-above " << fail_above_percent << "%";
    PrintError(err, line.str());
  } else {
    err << "warning: " << TerminalText(line.str()) << "\n";
  }
  return gate;
}

}  // namespace

CommandStatus RunSize(const SizeOptions& o, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kSizeFormats));
  Result<Timestamp> now = ParseNow(o.now);
  if (!now.ok()) return Status::Usage(now.status().message());
  std::vector<SizeRow> rows;
  bool over_gate = false;
  Progress progress(err, "size", o.progress);
  const bool failed = ForEachObject(o.files, err, [&](const InputObject& in) -> Status {
    progress.Update(rows.size(), "packages measured");
    if (in.payload_kind != PayloadKind::kPackage) return Status::OK();
    ZS_ASSIGN_OR_RETURN(SizeRow row, MeasureSecret(in, o.compact, o.output.structured()));
    over_gate = WarnNearLimit(row, in.label, o.fail_above_percent, err) || over_gate;
    rows.push_back(std::move(row));
    return Status::OK();
  });
  progress.Finish();
  // A failing run prints no table: its errors are on stderr, and a partial
  // table would read as the whole answer.
  if (failed || over_gate) return CommandStatus::FailureReported();
  if (rows.empty()) SayNothingFound("package Secrets", o.files, err);
  if (o.output.structured()) {
    Value list = Value::MakeArray();
    for (const SizeRow& r : rows) list.array().push_back(r.ToDocument());
    PrintStructured(list, o.output.format, out);
  } else if (o.output.name()) {
    std::vector<std::string> names;
    for (const SizeRow& r : rows) names.push_back(PackageObjectName(r.secret, r.key));
    PrintUniqueNames(names, out);
  } else {
    PrintSizeTable(rows, o.output, *now, out);
  }
  ZS_RETURN_IF_ERROR(FlushOutput(out, "standard output"));
  return Status::OK();
}

void RegisterSize(CLI::App* app, CommandStatus* outcome) {
  auto o = std::make_shared<SizeOptions>();
  CLI::App* cmd = app->add_subcommand("size", "Secret bytes as JSON, gzip-JSON and compact; headroom; events that fit");
  CLI::Option* files = cmd->add_option("-f,--filename", o->files, "Input file(s); '-' for stdin")->default_val(std::vector<std::string>{"-"});
  AddOutputOptions(cmd, &o->output, kSizeFormats);
  cmd->add_option("--now", o->now, "Compute the LAST EVENT age as of this RFC 3339 time");
  cmd->add_option("--fail-above", o->fail_above_percent,
                  "Exit 1 when a Secret, as stored, is over PCT% of the 1 MiB limit (a CI gate)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_flag("--compact", o->compact,
                "Measure the compact codec for every Secret (zstd level 19: milliseconds a "
                "Secret); by default only for one stored compact or over 90% of the limit");
  AddQuietFlag(cmd, &o->quiet);
  // The init state: not read, not fetched.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/false);
  cmd->callback([o, cluster, outcome] {
    *outcome = PrepareCommandInput(*cluster, &o->files, "size");
    if (!outcome->ok()) return;
    o->progress = ProgressWanted(o->quiet);
    *outcome = RunSize(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
