#include "tools/size_cmd.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "base/base64.h"
#include "base/hex.h"
#include "codec/compact.h"
#include "json/go_json.h"
#include "codec/gzip.h"
#include "codec/model_json.h"
#include "codec/package_secret.h"
#include "codec/secret.h"
#include "tools/cluster_input.h"
#include "tools/common.h"
#include "tools/progress.h"
#include "tools/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

struct CodecSizes {
  std::size_t json = 0;
  std::size_t gzip = 0;
  std::size_t compact = 0;
  // Why there is no compact size: the compact writer refused the package
  // (TooLarge: over the 16 MiB payload the reader decodes, or elements that
  // compress too well for its budget). A report, not a failure: the other
  // sizes stand.
  std::string compact_refused;
};

Result<CodecSizes> Measure(const DeployedPackage& pkg) {
  CodecSizes s;
  const std::string j = EncodeDeployedPackage(pkg);
  s.json = j.size();
  ZS_ASSIGN_OR_RETURN(std::string gz, Gzip(j));
  s.gzip = Base64Encode(gz).size();
  Result<std::string> c = compact::Encode(pkg);
  if (c.ok()) {
    s.compact = c->size();
  } else if (c.status().code() == Status::Code::kTooLarge) {
    s.compact_refused = std::string(c.status().message());
  } else {
    return c.status();
  }
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

// Bytes one more event costs under each codec, from `kProbe` added events
// that differ as real ones do (time, package digest, config digest). Measured
// on the package with its newest `kWindow` events only, so that it costs the
// same however long the history is (an event's cost hardly depends on events
// far back). `whole` is the measure of all of `pkg`.
Result<CodecSizes> PerEvent(const DeployedPackage& pkg, const CodecSizes& whole) {
  constexpr std::size_t kProbe = 32;
  constexpr std::size_t kWindow = 64;
  DeployedPackage grown = pkg;
  CodecSizes base = whole;
  if (grown.events.size() > kWindow) {
    grown.events.erase(grown.events.begin(),
                       grown.events.end() - static_cast<std::ptrdiff_t>(kWindow));
    ZS_ASSIGN_OR_RETURN(base, Measure(grown));
  }
  PackageEvent e = TypicalEvent(pkg);
  std::uint64_t rng = 20261130;
  for (std::size_t i = 0; i < kProbe; ++i) {
    e.timestamp = Timestamp::FromUnixNanos(e.timestamp.unix_nanos() + 61'000'000'007LL);
    e.config_digest = "sha256:" + RandomHex(&rng);
    if (i % 2 == 0) e.digest = "sha256:" + RandomHex(&rng);
    grown.events.push_back(e);
  }
  ZS_ASSIGN_OR_RETURN(CodecSizes g, Measure(grown));
  auto per = [&](std::size_t a, std::size_t b) { return std::max<std::size_t>(1, (b - std::min(a, b) + kProbe - 1) / kProbe); };
  CodecSizes out{per(base.json, g.json), per(base.gzip, g.gzip), 0, {}};
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

Value CodecValue(std::size_t bytes, std::size_t per_event) {
  return Value::MakeObject({{"bytes", Value::Int(static_cast<std::int64_t>(bytes))},
                            {"headroomBytes", Value::Int(Headroom(bytes))},
                            {"bytesPerEvent", Value::Int(static_cast<std::int64_t>(per_event))},
                            {"moreEventsFit", Value::Int(Fit(bytes, per_event))}});
}

}  // namespace

int RunSize(const SizeOptions& o, std::ostream& raw_out, std::ostream& err) {
  // Names and values come from Secrets: a table never passes their control
  // characters to the terminal.
  TableStream table(raw_out, o.output == "table");
  std::ostream& out = table.stream();
  if (o.output != "table" && o.output != "json" && o.output != "yaml") {
    err << "error: -o must be table, json or yaml\n";
    return kExitUsage;
  }
  Value rows = Value::MakeArray();
  bool over_gate = false;
  Progress progress(err, "size", o.progress);
  const bool failed = ForEachObject(o.files, err, [&](const InputObject& in) -> Status {
    progress.Update(rows.array().size(), "packages measured");
    if (in.payload_kind != PayloadKind::kPackage) return Status::OK();
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodePackagePayload(in.payload));
    ZS_ASSIGN_OR_RETURN(CodecSizes sizes, Measure(pkg));
    ZS_ASSIGN_OR_RETURN(CodecSizes per, PerEvent(pkg, sizes));
    const std::string refused =
        sizes.compact_refused.empty() ? per.compact_refused : sizes.compact_refused;
    rows.array().push_back(Value::MakeObject(
        {{"name", Value::String(pkg.name)},
         {"source", Value::String(in.label)},
         {"events", Value::Int(static_cast<std::int64_t>(pkg.events.size()))},
         {"limitBytes", Value::Int(static_cast<std::int64_t>(kSecretSizeLimit))},
         {"json", CodecValue(sizes.json, per.json)},
         {"gzipBase64", CodecValue(sizes.gzip, per.gzip)},
         {"compact", refused.empty() ? CodecValue(sizes.compact, per.compact)
                                     : Value::MakeObject({{"bytes", Value::Null()},
                                                          {"refused", Value::String(refused)}})}}));
    const std::string_view note = ZarfCannotRead(in.payload);
    if (!note.empty()) rows.array().back().Set("zarfNote", Value::String(std::string(note)));
    // The codec the Secret is stored in decides how close it is.
    const std::size_t stored = note.empty() ? sizes.json : sizes.compact;
    const double percent = 100.0 * static_cast<double>(stored) / static_cast<double>(kSecretSizeLimit);
    const bool gate = o.fail_above_percent > 0 && percent > o.fail_above_percent;
    if (stored >= kSecretWarnBytes || gate) {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%", percent);
      err << (gate ? "error: " : "warning: ") << TerminalText(in.label) << ": package "
          << TerminalText(pkg.name) << " is " << stored << " bytes as stored ("
          << (note.empty() ? "json" : "compact") << "), " << pct << " of the " << kSecretSizeLimit
          << "-byte Secret limit";
      if (gate) err << ", over --fail-above " << o.fail_above_percent << "%";
      err << "\n";
      over_gate = over_gate || gate;
    }
    return Status::OK();
  });
  progress.Finish();
  if (o.output != "table") {
    PrintDocument(rows, o.output, out);
    return failed || over_gate ? kExitSomeFailed : kExitOk;
  }
  // Every value on one line: a line feed in a name cannot start a fake row.
  rows = TerminalValues(rows);
  char line[512];
  std::snprintf(line, sizeof line, "%-24s %9s %9s %9s %7s %7s %11s %13s\n", "PACKAGE", "JSON", "GZIP+B64",
                "COMPACT", "C/JSON", "C/GZIP", "HEADROOM", "EVENTS FIT");
  out << line;
  auto has_compact = [](const Value& r) { return !r.Find("compact")->Find("bytes")->is_null(); };
  for (const Value& r : rows.array()) {
    auto bytes = [&](const char* codec) { return std::stoll(r.Find(codec)->Find("bytes")->number_raw()); };
    auto fit = [&](const char* codec) { return r.Find(codec)->Find("moreEventsFit")->number_raw(); };
    const double j = static_cast<double>(bytes("json")), g = static_cast<double>(bytes("gzipBase64"));
    if (has_compact(r)) {
      const double c = static_cast<double>(bytes("compact"));
      std::snprintf(line, sizeof line, "%-24.24s %9lld %9lld %9lld %7.3f %7.3f %11lld %6s/%-6s\n",
                    std::string(r.StringOr("name")).c_str(), bytes("json"), bytes("gzipBase64"),
                    bytes("compact"), c / j, c / g,
                    static_cast<long long>(Headroom(static_cast<std::size_t>(j))), fit("json").c_str(),
                    fit("compact").c_str());
    } else {
      std::snprintf(line, sizeof line, "%-24.24s %9lld %9lld %9s %7s %7s %11lld %6s/%-6s\n",
                    std::string(r.StringOr("name")).c_str(), bytes("json"), bytes("gzipBase64"), "-",
                    "-", "-", static_cast<long long>(Headroom(static_cast<std::size_t>(j))),
                    fit("json").c_str(), "-");
    }
    out << line;
  }
  for (const Value& r : rows.array()) {
    if (has_compact(r)) continue;
    out << r.StringOr("name") << ": no compact size: the compact writer refuses it ("
        << r.Find("compact")->StringOr("refused") << ")\n";
  }
  for (const Value& r : rows.array()) {
    if (r.StringOr("zarfNote").empty()) continue;
    out << r.StringOr("name") << ": stored compact, which Zarf CANNOT READ: " << r.StringOr("zarfNote")
        << "\n";
  }
  out << "(HEADROOM: bytes left under " << kSecretSizeLimit
      << " as JSON; EVENTS FIT: more events that fit, json/compact)\n";
  if (rows.array().size() > 1) {
    // Medians over the input: the corpus figures docs/performance.md quotes.
    std::vector<double> j, g, c, cg, cj;
    for (const Value& r : rows.array()) {
      if (!has_compact(r)) continue;  // medians over the packages all codecs measured
      auto bytes = [&](const char* codec) {
        return std::stod(r.Find(codec)->Find("bytes")->number_raw());
      };
      j.push_back(bytes("json"));
      g.push_back(bytes("gzipBase64"));
      c.push_back(bytes("compact"));
      cg.push_back(c.back() / g.back());
      cj.push_back(c.back() / j.back());
    }
    if (j.size() < 2) return failed ? kExitSomeFailed : kExitOk;
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      const std::size_t n = v.size();
      return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    };
    std::snprintf(line, sizeof line,
                  "median over %zu packages: json %.0f, gzip+base64 %.0f, compact %.0f bytes; "
                  "compact/gzip %.3f, compact/json %.3f (medians of per-package ratios)\n",
                  j.size(), median(j), median(g), median(c), median(cg), median(cj));
    out << line;
  }
  return failed || over_gate ? kExitSomeFailed : kExitOk;
}

void RegisterSize(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<SizeOptions>();
  CLI::App* cmd = app->add_subcommand("size", "Secret bytes as JSON, gzip-JSON and compact; headroom; events that fit");
  CLI::Option* files = cmd->add_option("-f,--filename", o->files, "Input file(s); '-' for stdin")->default_val(std::vector<std::string>{"-"});
  AddOutputOption(cmd, &o->output, {"table", "json", "yaml"});
  cmd->add_option("--fail-above", o->fail_above_percent,
                  "Exit 1 when a Secret, as stored, is over PCT% of the 1 MiB limit (a CI gate)")
      ->check(CLI::Range(0.0, 100.0));
  AddQuietFlag(cmd, &o->quiet);
  // The init state: not read, not fetched.
  auto cluster = AddClusterFlags(cmd, files, /*init_state=*/false);
  cmd->callback([o, cluster, exit_code] {
    if (!UseClusterInput(*cluster, &o->files, std::cerr)) {
      *exit_code = kExitSomeFailed;
      return;
    }
    if (!InputIsUsable(o->files, "size", exit_code)) return;
    o->progress = ProgressWanted(o->quiet);
    *exit_code = RunSize(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
