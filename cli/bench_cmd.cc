#include "cli/bench_cmd.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include "json/go_json.h"
#include "kube/secret.h"
#include "cli/common.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "io/state_file.h"
#include "report/svg_plot.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

const std::vector<std::string> kGrowthFormats = {"table", "wide", "json", "yaml"};

using json::Value;

// Enough to watch any plateau; bounds the run time of a typo.
constexpr int kMaxCycles = 100000;

// The quick run's (without --full): one period of the cycle schedule, and a
// search that still finds json's largest fit for the default shape.
constexpr int kQuickCycles = 20;
constexpr int kQuickMaxImages = 50000;

std::optional<Codec> CodecByName(std::string_view name) {
  if (name == "json") return JsonCodec();
  if (name == "gzip") return GzipCodec();
  if (name == "compact") return CompactCodec();
  return std::nullopt;
}

std::string Kib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024);
  return buf;
}

std::string Fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// What is measured for one codec.
struct CodecReport {
  Codec codec;
  std::size_t final_bytes = 0;
  FitResult fit;
  std::map<int, std::size_t> size_by_ipc;  // images per component -> bytes
  bool searched = false;                   // `fit` is known
};

// Images-per-component counts for the size sweep: powers of two up to twice
// the smallest largest-fitting package (so at least one line crosses the
// limit; 4,096 when every search hit the cap), plus the shape's own count.
// Larger packages are measured by the searches anyway, and their probes join
// each codec's line.
std::vector<int> SweepCounts(const PackageShape& shape, const std::vector<CodecReport>& reports,
                             int max_ipc) {
  int top = 0;
  for (const CodecReport& r : reports) {
    const int twice = std::max(1, 2 * r.fit.images_per_component);
    if (!r.fit.capped) top = top == 0 ? twice : std::min(top, twice);
  }
  top = std::min(top == 0 ? 4096 : top, max_ipc);
  std::vector<int> counts;
  for (long long n = 1; n <= top; n *= 2) counts.push_back(static_cast<int>(n));
  counts.push_back(std::min(shape.images_per_component, max_ipc));
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::string ShapeLine(const BenchGrowthOptions& o) {
  const PackageShape& s = o.shape;
  return std::to_string(s.components) + " components x " + std::to_string(s.images_per_component) +
         " images, " + std::to_string(s.charts_per_component) + " chart(s) each, values ~" +
         std::to_string(s.values_bytes) + " B, events capped at " + std::to_string(s.max_events) +
         (s.pin_digests ? ", images pinned by digest" : "");
}

std::string FitText(const FitResult& f) {
  const bool budget = f.limited_by() == "decoder-budget";
  if (f.images_per_component == 0) {
    return budget ? "none: 1 image per component is over the decoder budget"
                  : "none: 1 image per component is too big";
  }
  return std::string(f.capped ? ">= " : "") + std::to_string(f.components) + " x " +
         WithThousands(static_cast<std::size_t>(f.images_per_component)) + " = " +
         WithThousands(static_cast<std::size_t>(f.images())) + " images" +
         (f.capped ? " (search cap)" : budget ? " (decoder budget)" : "");
}

// Images that fit with `r` relative to json; nullopt without an exact json
// fit to compare with.
std::optional<double> VsJson(const CodecReport& r, const std::vector<CodecReport>& all) {
  for (const CodecReport& j : all) {
    if (j.codec.name == "json" && j.fit.images() > 0 && !j.fit.capped) {
      return static_cast<double>(r.fit.images()) / j.fit.images();
    }
  }
  return std::nullopt;
}

// The table of one row per codec under a title line (the package's shape),
// printed row by row as each codec's search ends (each row flushed: a pipe
// sees it at once); --no-headers prints the rows only. -o wide adds the
// exact bytes and the largest fit's bytes. A fit that the decoder budget
// ended is marked, with a note under the table.
class GrowthTable {
 public:
  GrowthTable(const BenchGrowthOptions& o, std::ostream& out)
      : o_(o),
        out_(out),
        table_({{"CODEC"},
                {"AFTER " + std::to_string(o.cycles) + " CYCLES"},
                {"HEADROOM"},
                {"LARGEST PACKAGE THAT FITS (IMAGES VS JSON)"},
                {"BYTES", true},
                {"FIT BYTES", true}},
               o.output) {
    // Rows print before the others are known: widths for the widest cells.
    table_.Measure({"compact", "1023.9 KiB", "1023.9 KiB (100.0%)",
                    ">= 1 x 5,000,000 = 5,000,000 images (decoder budget) (100.0x)", "10485760",
                    "10485760"});
    if (!o.output.no_headers) {
      out_ << "bench growth: " << ShapeLine(o) << "; " << o.cycles << " cycles"
           << (o.full ? "" : " (quick run; --full for the full one)") << "\n";
      out_.flush();
    }
  }

  void Row(const CodecReport& r, const std::vector<CodecReport>& all) {
    const double headroom =
        static_cast<double>(kSecretSizeLimit) - static_cast<double>(r.final_bytes);
    const std::string head = Kib(headroom) + " (" +
                             Fixed(100 * headroom / static_cast<double>(kSecretSizeLimit), 1) +
                             "%)";
    std::string fit = FitText(r.fit);
    if (auto ratio = VsJson(r, all)) {
      fit += " (" + std::string(r.fit.capped ? ">= " : "") + Fixed(*ratio, 1) + "x)";
    }
    budget_ = budget_ || r.fit.limited_by() == "decoder-budget";
    table_.Print({r.codec.name, Kib(static_cast<double>(r.final_bytes)), head, fit,
                  std::to_string(r.final_bytes), std::to_string(r.fit.bytes)},
                 out_);
    out_.flush();
  }

  void End(const std::vector<std::string>& files) {
    if (o_.output.no_headers) return;
    if (budget_) {
      out_ << "decoder budget: the reader decodes at most 16 MiB of package JSON, so a larger "
              "package is refused before its Secret reaches 1 MiB\n";
    }
    for (const std::string& f : files) out_ << "wrote " << TerminalText(f) << "\n";
  }

 private:
  const BenchGrowthOptions& o_;
  std::ostream& out_;
  StreamedTable table_;
  bool budget_ = false;
};

Value JsonReport(const BenchGrowthOptions& o, const std::vector<CodecReport>& reports,
                 const std::vector<std::string>& files) {
  const PackageShape& s = o.shape;
  Value codecs = Value::MakeArray();
  for (const CodecReport& r : reports) {
    Value fit = Value::MakeObject({
        {"components", Value::Int(r.fit.components)},
        {"imagesPerComponent", Value::Int(r.fit.images_per_component)},
        {"images", Value::Int(r.fit.images())},
        {"bytes", Value::Int(static_cast<std::int64_t>(r.fit.bytes))},
        {"nextBytes", Value::Int(static_cast<std::int64_t>(r.fit.next_bytes))},
        {"capped", Value::Bool(r.fit.capped)},
        {"limitedBy", Value::String(std::string(r.fit.limited_by()))},
    });
    auto ratio = VsJson(r, reports);
    codecs.array().push_back(Value::MakeObject({
        {"codec", Value::String(r.codec.name)},
        {"bytes", Value::Int(static_cast<std::int64_t>(r.final_bytes))},
        {"headroom", Value::Int(static_cast<std::int64_t>(kSecretSizeLimit) -
                                static_cast<std::int64_t>(r.final_bytes))},
        {"largestFit", std::move(fit)},
        {"imagesVsJson", ratio ? Value::RawNumber(Fixed(*ratio, 2)) : Value::Null()},
    }));
  }
  Value names = Value::MakeArray();
  for (const std::string& f : files) names.array().push_back(Value::String(f));
  return Value::MakeObject({
      {"shape", Value::MakeObject({
                    {"components", Value::Int(s.components)},
                    {"imagesPerComponent", Value::Int(s.images_per_component)},
                    {"chartsPerComponent", Value::Int(s.charts_per_component)},
                    {"valuesBytes", Value::Int(static_cast<std::int64_t>(s.values_bytes))},
                    {"maxEvents", Value::Int(static_cast<std::int64_t>(s.max_events))},
                    {"pinDigests", Value::Bool(s.pin_digests)},
                })},
      {"cycles", Value::Int(o.cycles)},
      {"limit", Value::Int(static_cast<std::int64_t>(kSecretSizeLimit))},
      {"codecs", std::move(codecs)},
      {"files", std::move(names)},
  });
}

// Writes the CSVs and SVGs; returns the paths written.
Result<std::vector<std::string>> WriteOutputs(const BenchGrowthOptions& o,
                                              const std::vector<GrowthPoint>& growth,
                                              const std::vector<CodecReport>& reports) {
  const std::filesystem::path dir(o.out_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IOError("cannot create " + dir.string() + ": " + ec.message());

  std::string cycles_csv = "cycle,codec,bytes\n";
  for (const GrowthPoint& p : growth) {
    cycles_csv += std::to_string(p.cycle) + "," + p.codec + "," + std::to_string(p.bytes) + "\n";
  }
  std::string size_csv = "images,components,codec,bytes\n";
  std::string fit_csv = "codec,images,bytes,capped,limited_by\n";
  std::vector<PlotSeries> cycle_series, size_series;
  for (const CodecReport& r : reports) {
    PlotSeries by_cycle{r.codec.name, {}}, by_size{r.codec.name, {}};
    fit_csv += r.codec.name + "," + std::to_string(r.fit.images()) + "," +
               std::to_string(r.fit.bytes) + "," + (r.fit.capped ? "true" : "false") + "," +
               std::string(r.fit.limited_by()) + "\n";
    if (r.fit.limited_by() != "secret-limit" && r.fit.images() > 0) {
      by_size.marks.push_back({static_cast<double>(r.fit.images()),
                               static_cast<double>(r.fit.bytes),
                               r.fit.capped ? kSearchCapLabel : kDecoderBudgetLabel});
    }
    for (const GrowthPoint& p : growth) {
      if (p.codec == r.codec.name)
        by_cycle.points.emplace_back(p.cycle, static_cast<double>(p.bytes));
    }
    for (auto [ipc, bytes] : r.size_by_ipc) {
      const int images = ipc * o.shape.components;
      size_csv += std::to_string(images) + "," + std::to_string(o.shape.components) + "," +
                  r.codec.name + "," + std::to_string(bytes) + "\n";
      by_size.points.emplace_back(images, static_cast<double>(bytes));
    }
    cycle_series.push_back(std::move(by_cycle));
    size_series.push_back(std::move(by_size));
  }

  PlotOptions cycles_plot;
  cycles_plot.title = "Secret size over deploy/upgrade/remove cycles: " + ShapeLine(o);
  cycles_plot.x_label = "cycle";
  cycles_plot.y_label = "Secret size (KiB)";
  cycles_plot.log_y = true;
  cycles_plot.limit = static_cast<double>(kSecretSizeLimit);
  cycles_plot.limit_label = "1 MiB Secret limit";
  PlotOptions size_plot = cycles_plot;
  size_plot.title = "Secret size after " + std::to_string(o.cycles) +
                    " cycles against package size (" + std::to_string(o.shape.components) +
                    " components)";
  size_plot.x_label = "images in the package";
  size_plot.log_x = true;

  const std::vector<std::pair<std::string, std::string>> files = {
      {"growth-cycles.csv", cycles_csv},
      {"growth-size.csv", size_csv},
      {"growth-fit.csv", fit_csv},
      {"growth-cycles.svg", RenderLineChart(cycles_plot, cycle_series)},
      {"growth-size.svg", RenderLineChart(size_plot, size_series)},
  };
  std::vector<std::string> written;
  for (const auto& [name, text] : files) {
    // Temp file + rename: a kill mid-run leaves each output old or new.
    ZS_RETURN_IF_ERROR(WriteOutputFile((dir / name).string(), text));
    written.push_back((dir / name).string());
  }
  return written;
}

// Searches each codec's largest fitting package, json first (the other
// rows compare with its fit), and prints each row on `table` (if any) once
// it and the rows before it are known.
Status SearchFits(const BenchGrowthOptions& o, std::vector<CodecReport>* reports,
                  Progress& progress, GrowthTable* table) {
  FitOptions fit_options;
  fit_options.cycle = o.cycles;
  fit_options.max_images = o.max_images;
  std::vector<std::size_t> order(reports->size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(),
                        [&](std::size_t i) { return (*reports)[i].codec.name == "json"; });
  std::size_t printed = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    CodecReport& r = (*reports)[order[k]];
    progress.Stage("searching the largest package that fits with " + r.codec.name + " (" +
                   std::to_string(k + 1) + "/" + std::to_string(reports->size()) + ")");
    ZS_ASSIGN_OR_RETURN(r.fit, LargestFitting(o.shape, r.codec, fit_options));
    r.searched = true;
    for (auto [ipc, bytes] : r.fit.probed) r.size_by_ipc[ipc] = bytes;
    for (; table && printed < reports->size() && (*reports)[printed].searched; ++printed) {
      progress.Finish();
      table->Row((*reports)[printed], *reports);
    }
  }
  return Status::OK();
}

}  // namespace

CommandStatus RunBenchGrowth(const BenchGrowthOptions& o, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kGrowthFormats));
  if (o.cycles < 1 || o.cycles > kMaxCycles) {
    return Status::Usage("--cycles must be between 1 and " + std::to_string(kMaxCycles));
  }
  if (o.max_images < 1) return Status::Usage("--max-images must be at least 1");
  if (Status s = ValidateShape(o.shape); !s.ok()) return Status::Usage(s.message());
  std::vector<CodecReport> reports;
  for (const std::string& name : o.codecs) {
    auto codec = CodecByName(name);
    if (!codec) return Status::Usage("unknown codec '" + name + "' (json, gzip, compact)");
    reports.push_back({std::move(*codec), 0, {}, {}, false});
  }
  if (reports.empty()) return Status::Usage("--codecs names no codec");
  std::vector<Codec> codecs;
  for (const CodecReport& r : reports) codecs.push_back(r.codec);
  Progress progress(err, "bench growth", o.progress);
  auto fail = [&](const Status& s) {
    progress.Finish();
    return s.WithContext("bench growth");
  };

  std::optional<GrowthTable> table;
  if (!o.output.structured()) table.emplace(o, out);
  progress.Stage("simulating " + std::to_string(o.cycles) + " cycles");
  auto growth = SimulateCycles(o.shape, o.cycles, codecs);
  if (!growth.ok()) return fail(growth.status());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    reports[i].final_bytes = (*growth)[growth->size() - reports.size() + i].bytes;
  }

  if (Status s = SearchFits(o, &reports, progress, table ? &*table : nullptr); !s.ok()) {
    return fail(s);
  }

  progress.Stage("measuring package sizes");
  const int max_ipc = std::max(1, o.max_images / o.shape.components);
  auto sweep = SweepSizes(o.shape, SweepCounts(o.shape, reports, max_ipc), o.cycles, codecs);
  if (!sweep.ok()) return fail(sweep.status());
  for (const SizePoint& p : *sweep) {
    for (CodecReport& r : reports) {
      if (r.codec.name == p.codec) r.size_by_ipc[p.images_per_component] = p.bytes;
    }
  }

  auto files = WriteOutputs(o, *growth, reports);
  progress.Finish();
  if (!files.ok()) return fail(files.status());
  if (o.output.structured()) {
    PrintStructured(JsonReport(o, reports, *files), o.output.format, out);
  } else {
    table->End(*files);
  }
  return Status::OK();
}

void RegisterBench(CLI::App* app, CommandStatus* outcome) {
  CLI::App* bench = app->add_subcommand("bench", "Benchmarks of Secret size");
  bench->require_subcommand(1);
  auto o = std::make_shared<BenchGrowthOptions>();
  CLI::App* cmd = bench->add_subcommand(
      "growth",
      "Simulate deploy/upgrade/remove cycles; write CSV and SVG of Secret size per codec");
  cmd->add_option("--out", o->out_dir, "Directory for the CSV and SVG files")
      ->capture_default_str();
  cmd->add_flag("--full", o->full,
                "The full run (minutes): " + std::to_string(o->cycles) + " cycles, the search up to " +
                    std::to_string(o->max_images) + " images; without it a quick one (seconds): " +
                    std::to_string(kQuickCycles) + " cycles, up to " +
                    std::to_string(kQuickMaxImages) + " images");
  CLI::Option* cycles =
      cmd->add_option("--cycles", o->cycles, "Deploy/upgrade/remove cycles to simulate")
          ->capture_default_str();
  cmd->add_option("--components", o->shape.components, "Components in the package")
      ->capture_default_str();
  cmd->add_option("--images", o->shape.images_per_component, "Images per component")
      ->capture_default_str();
  cmd->add_option("--charts", o->shape.charts_per_component, "Helm charts per component")
      ->capture_default_str();
  cmd->add_option("--values-bytes", o->shape.values_bytes,
                  "Approximate size of the deploy's Values, as JSON")
      ->capture_default_str();
  cmd->add_option("--max-events", o->shape.max_events, "Events a Secret keeps")
      ->capture_default_str();
  cmd->add_flag("--pin-digests", o->shape.pin_digests,
                "Pin every image by digest (incompressible)");
  CLI::Option* max_images =
      cmd->add_option("--max-images", o->max_images,
                      "Stop the largest-package search at this many images")
          ->capture_default_str();
  cmd->add_option("--codecs", o->codecs, "Codecs to measure: json, gzip, compact")
      ->delimiter(',')
      ->capture_default_str();
  AddOutputOptions(cmd, &o->output, kGrowthFormats);
  AddQuietFlag(cmd, &o->quiet);
  cmd->callback([o, outcome, cycles, max_images] {
    BenchGrowthOptions run = *o;
    run.progress = ProgressWanted(o->quiet);
    if (!run.full) {  // the quick run, unless a flag says otherwise
      if (cycles->count() == 0) run.cycles = kQuickCycles;
      if (max_images->count() == 0) run.max_images = kQuickMaxImages;
    }
    *outcome = RunBenchGrowth(run, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
