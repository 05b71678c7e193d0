// Tests of `bench growth` and the pieces it is built from: the growth
// simulation (report/growth_sim.h) and the SVG writer (report/svg_plot.h).
#include "cli/bench_cmd.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kube/secret.h"
#include "json/go_json.h"
#include "json/json_reader.h"
#include "tests/test_util.h"
#include "cli/common.h"
#include "report/growth_sim.h"
#include "report/svg_plot.h"
#include "yaml/yaml.h"

namespace zs::tools {
namespace {

namespace fs = std::filesystem;

// codec -> bytes after each cycle (index 0 is cycle 1).
std::map<std::string, std::vector<std::size_t>> ByCodec(const std::vector<GrowthPoint>& points) {
  std::map<std::string, std::vector<std::size_t>> out;
  for (const GrowthPoint& p : points) {
    auto& v = out[p.codec];
    EXPECT_EQ(static_cast<int>(v.size()) + 1, p.cycle) << p.codec;
    v.push_back(p.bytes);
  }
  return out;
}

std::size_t Count(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// Whether every element is closed in order: a minimal well-formedness check.
bool TagsBalance(std::string_view xml) {
  std::vector<std::string> open;
  for (std::size_t i = xml.find('<'); i != std::string_view::npos; i = xml.find('<', i + 1)) {
    const std::size_t end = xml.find('>', i);
    if (end == std::string_view::npos) return false;
    const std::string_view tag = xml.substr(i + 1, end - i - 1);
    const std::string name(
        tag.substr(tag[0] == '/', tag.find_first_of(" />", 1) - (tag[0] == '/')));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) return false;
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(name);
    }
  }
  return open.empty();
}

TEST(GrowthSimTest, SizesGrowUntilTheEventCapIsReachedThenRepeatWithTheSchedule) {
  PackageShape shape;  // 5 components x 4 images, events capped at 10
  auto points = SimulateCycles(shape, 80, AllCodecs());
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  ASSERT_EQ(points->size(), 80u * 3);
  auto sizes = ByCodec(*points);
  const std::vector<std::size_t>& json = sizes["json"];

  const int fill = CyclesToFillEvents(shape.max_events);
  EXPECT_EQ(fill, 5);
  for (int c = 1; c < fill; ++c) EXPECT_LT(json[c - 1], json[c]) << "cycle " << c + 1;
  // On the plateau only the content of the last 10 events changes. The
  // schedule repeats every 20 cycles and timestamps have a fixed length, so
  // once every version string in the Secret has two digits and the
  // generation counters (one step per component deployed) three, the JSON
  // size repeats exactly; the compressed sizes only nearly.
  for (int c = 25; c + kSchedulePeriod <= 80; ++c) {
    EXPECT_EQ(json[c - 1], json[c - 1 + kSchedulePeriod]) << "cycle " << c;
    for (const char* codec : {"gzip", "compact"}) {
      const double a = static_cast<double>(sizes[codec][c - 1]);
      const double b = static_cast<double>(sizes[codec][c - 1 + kSchedulePeriod]);
      EXPECT_NEAR(a, b, 0.03 * a) << codec << " cycle " << c;
    }
  }
  // Across the whole plateau, the mix of event kinds in the window and the
  // version strings' digits move the size by a few per cent, while filling
  // the window grew it by half.
  const auto [lo, hi] = std::minmax_element(json.begin() + fill - 1, json.end());
  EXPECT_LT(*hi - *lo, *lo / 30);
  EXPECT_GT(json[fill - 1] - json[0], json[0] / 3);
}

TEST(GrowthSimTest, GzipIsSmallerThanJsonAndCompactIsSmallerThanGzip) {
  for (int images : {4, 200}) {
    for (bool pinned : {false, true}) {
      PackageShape shape;
      shape.images_per_component = images;
      shape.pin_digests = pinned;
      auto sizes = SizesAfter(shape, 30, AllCodecs());
      ASSERT_TRUE(sizes.ok()) << sizes.status().ToString();
      SCOPED_TRACE(std::to_string(images) + " images per component, pinned " +
                   std::to_string(pinned));
      EXPECT_LT((*sizes)[1], (*sizes)[0]);
      EXPECT_LT((*sizes)[2], (*sizes)[1]);
    }
  }
}

TEST(GrowthSimTest, TheTailOfTheScheduleMeasuresLikeTheWholeRun) {
  PackageShape shape;
  auto full = SimulateCycles(shape, 40, {JsonCodec()});
  ASSERT_TRUE(full.ok());
  auto tail = SizesAfter(shape, 40, {JsonCodec()});
  ASSERT_TRUE(tail.ok());
  EXPECT_LT(TailStart(40, shape.max_events), 40);
  // Only the generation counters differ (one step per component deployed):
  // three digits in the whole run, one or two in the tail, for the package
  // and each component.
  const std::size_t whole = full->back().bytes;
  EXPECT_LE(tail->front(), whole);
  EXPECT_GE(tail->front() + 2 * (1 + static_cast<std::size_t>(shape.components)), whole);
}

TEST(GrowthSimTest, LargestFittingJsonPackageFitsAndOneMoreImageDoesNot) {
  PackageShape shape;
  FitOptions options;
  options.cycle = 12;
  auto fit = LargestFitting(shape, JsonCodec(), options);
  ASSERT_TRUE(fit.ok()) << fit.status().ToString();
  EXPECT_FALSE(fit->capped);
  EXPECT_EQ(fit->components, 5);
  EXPECT_GT(fit->images(), 1000);
  EXPECT_LE(fit->bytes, kSecretSizeLimit);
  EXPECT_GT(fit->next_bytes, kSecretSizeLimit);
  EXPECT_LE(fit->probes, 12);

  PackageShape at = shape;
  at.images_per_component = fit->images_per_component;
  auto fits = SizesAfter(at, 12, {JsonCodec()});
  ASSERT_TRUE(fits.ok());
  EXPECT_EQ(fits->front(), fit->bytes);
  EXPECT_LE(fits->front(), kSecretSizeLimit);
  ++at.images_per_component;
  auto over = SizesAfter(at, 12, {JsonCodec()});
  ASSERT_TRUE(over.ok());
  EXPECT_GT(over->front(), kSecretSizeLimit);
}

TEST(GrowthSimTest, LargestFittingStopsAtTheCapAndReportsAPackageThatNeverFits) {
  PackageShape shape;
  FitOptions options;
  options.max_images = 1000;
  auto capped = LargestFitting(shape, GzipCodec(), options);
  ASSERT_TRUE(capped.ok());
  EXPECT_TRUE(capped->capped);
  EXPECT_EQ(capped->images(), 1000);
  EXPECT_LE(capped->bytes, kSecretSizeLimit);

  shape.values_bytes = 2 * kSecretSizeLimit;  // the deploy config alone is too big
  auto none = LargestFitting(shape, JsonCodec());
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->images_per_component, 0);
  EXPECT_GT(none->next_bytes, kSecretSizeLimit);
}

// A codec that refuses a package over 200 images with TooLarge, as compact's
// encoder refuses what its reader's 16 MiB decode budget could not read back.
TEST(GrowthSimTest, ACodecThatRefusesTheNextPackageEndsAtTheDecoderBudget) {
  PackageShape shape;
  const Codec json = JsonCodec();
  Codec budget{"budget", [&](const DeployedPackage& pkg) -> Result<std::size_t> {
                 std::size_t images = 0;
                 const json::Value* components = pkg.data.Find("components");
                 for (const json::Value& c : components->array()) {
                   images += c.Find("images")->array().size();
                 }
                 if (images > 200) return Status::TooLarge("over the decode budget");
                 return json.secret_bytes(pkg);
               }};
  auto fit = LargestFitting(shape, budget);
  ASSERT_TRUE(fit.ok()) << fit.status().ToString();
  EXPECT_EQ(fit->images(), 200);
  EXPECT_EQ(fit->next_bytes, 0u);
  EXPECT_LT(fit->bytes, kSecretSizeLimit);
  EXPECT_EQ(fit->limited_by(), "decoder-budget");
  FitOptions small;
  small.max_images = 100;
  auto capped = LargestFitting(shape, budget, small);
  ASSERT_TRUE(capped.ok());
  EXPECT_EQ(capped->limited_by(), "search-cap");
  auto plain = LargestFitting(shape, json, FitOptions{12, 500000});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->limited_by(), "secret-limit");
}

TEST(GrowthSimTest, ThePackageAndConfigHaveTheShapeAsked) {
  PackageShape shape;
  shape.components = 3;
  shape.images_per_component = 7;
  shape.charts_per_component = 2;
  const json::Value pkg = MakePackageDefinition(shape, 12);
  const json::Value* components = pkg.Find("components");
  ASSERT_NE(components, nullptr);
  ASSERT_EQ(components->array().size(), 3u);
  const json::Value& last = components->array().back();
  EXPECT_EQ(last.StringOr("name"), "component-2");
  EXPECT_EQ(last.Find("charts")->array().size(), 2u);
  ASSERT_EQ(last.Find("images")->array().size(), 7u);
  EXPECT_EQ(last.Find("images")->array()[6].as_string(), "ghcr.io/acme/app-2-6:1.12.0");
  EXPECT_EQ(pkg.Find("metadata")->StringOr("version"), "1.12.0");
  // As Zarf stores it: struct-typed fields written, in declaration order.
  std::string bytes;
  ASSERT_TRUE(json::AppendJson(&bytes, last).ok());
  EXPECT_EQ(bytes.find(R"({"name":"component-2","description":")"), 0u) << bytes;
  EXPECT_NE(bytes.find(R"("required":true,"only":{"cluster":{}},"import":{},"charts":[)"),
            std::string::npos)
      << bytes;

  for (std::size_t bytes : {512u, 65536u}) {
    shape.values_bytes = bytes;
    const json::Value config = MakeDeployConfig(shape, 3);
    auto values = json::WriteJson(*config.Find("Values"));
    ASSERT_TRUE(values.ok());
    EXPECT_NEAR(static_cast<double>(values->size()), static_cast<double>(bytes), bytes * 0.1);
  }
}

TEST(GrowthSimTest, BadShapesAreRefused) {
  PackageShape shape;
  shape.components = 0;
  EXPECT_EQ(SimulateCycles(shape, 3, {JsonCodec()}).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(SimulateCycles(PackageShape{}, 0, {JsonCodec()}).status().code(),
            Status::Code::kInvalidArgument);
}

TEST(SvgPlotTest, TicksAreNiceNumbers) {
  EXPECT_EQ(NiceTicks(0, 7.3), (std::vector<double>{0, 2, 4, 6, 8}));
  EXPECT_EQ(NiceTicks(1, 50), (std::vector<double>{0, 10, 20, 30, 40, 50}));
  EXPECT_EQ(LogTicks(5, 351510), (std::vector<double>{1, 10, 100, 1e3, 1e4, 1e5, 1e6}));
  EXPECT_EQ(LogTicks(3, 40), (std::vector<double>{1, 2, 5, 10, 20, 50, 100}));
  EXPECT_EQ(LogTicks(2, 1100, 2).front(), 2);
  EXPECT_EQ(LogTicks(2, 1100, 2).back(), 2048);
}

TEST(SvgPlotTest, ChartHasOnePolylinePerSeriesALegendAndTheDashedLimit) {
  PlotOptions o;
  o.title = "sizes <json & gzip>";
  o.x_label = "cycle";
  o.y_label = "Secret size (KiB)";
  o.log_y = true;
  o.limit = 1048576;
  o.limit_label = "1 MiB limit";
  std::vector<PlotSeries> series = {
      {"json", {{1, 5000}, {2, 60000}, {3, 700000}}},  // spans decades: log stays
      {"gzip", {{1, 1500}, {2, 0}, {3, 2000}}},  // 0 cannot be drawn on a log axis
      {"compact", {}},
  };
  const std::string svg = RenderLineChart(o, series);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_TRUE(TagsBalance(svg));
  EXPECT_EQ(Count(svg, "<polyline"), 3u);
  EXPECT_EQ(Count(svg, "class=\"limit\""), 1u);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(svg.find(">1 MiB limit</text>"), std::string::npos);
  EXPECT_NE(svg.find("sizes &lt;json &amp; gzip&gt;"), std::string::npos);
  for (const char* name : {">json<", ">gzip<", ">compact<"}) {
    EXPECT_NE(svg.find(name), std::string::npos) << name;
  }
  // The limit (1024 KiB) is a tick of the KiB axis.
  EXPECT_NE(svg.find(">1,024</text>"), std::string::npos);
  // Two of gzip's three points survive.
  const std::size_t at = svg.find("stroke=\"#ff7f0e\" stroke-width=\"2\"");
  ASSERT_NE(at, std::string::npos);
  const std::string line = svg.substr(at, svg.find("/>", at) - at);
  EXPECT_EQ(Count(line, ","), 2u);
}

TEST(SvgPlotTest, TextsGoThroughTheOneEscaperAndKeepNoControls) {
  PlotOptions o;
  o.title = std::string("pkg\0name\x1b[2J 'q'", 16);
  o.y_label = "bytes";
  const std::string svg = RenderLineChart(o, {{"a\x1b]0;t\x07", {{1, 1}, {2, 2}}}});
  EXPECT_EQ(svg.find('\0'), std::string::npos);
  EXPECT_EQ(svg.find('\x1b'), std::string::npos);
  EXPECT_EQ(svg.find('\x07'), std::string::npos);
  EXPECT_NE(svg.find("pkg\uFFFDname\uFFFD[2J &#39;q&#39;"), std::string::npos) << svg;
}

TEST(SvgPlotTest, LogIsGrantedOnlyToDataSpanningADecade) {
  PlotOptions o;
  o.y_label = "Secret size (KiB)";
  o.log_y = true;
  o.limit = 1048576;
  o.limit_label = "1 MiB limit";
  // 1-8 KiB: linear, from zero, the far limit a note instead of a line.
  const std::string narrow = RenderLineChart(o, {{"json", {{1, 1024}, {2, 4096}, {3, 8192}}}});
  EXPECT_NE(narrow.find(">Secret size (KiB)</text>"), std::string::npos);
  EXPECT_NE(narrow.find(">0</text>"), std::string::npos);
  EXPECT_NE(narrow.find(">8</text>"), std::string::npos);
  EXPECT_EQ(narrow.find("stroke-dasharray"), std::string::npos);
  EXPECT_EQ(Count(narrow, "class=\"limit\""), 1u);
  EXPECT_NE(narrow.find("1 MiB limit: 1,024 KiB, 128x the largest value, off this scale"),
            std::string::npos);
  // 1-200 KiB: log, and the label says so.
  const std::string wide = RenderLineChart(o, {{"json", {{1, 1024}, {2, 204800}}}});
  EXPECT_NE(wide.find(">Secret size (KiB) (log scale)</text>"), std::string::npos);
  EXPECT_NE(wide.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(wide.find(">1,024</text>"), std::string::npos);
}

TEST(SvgPlotTest, ALimitFarAboveLogDataIsANote) {
  PlotOptions o;
  o.log_y = true;
  o.limit = 1048576;
  // 0.75-8.3 KiB spans a decade: log, but the limit 123x above is a note.
  const std::string svg = RenderLineChart(o, {{"json", {{1, 768}, {2, 8500}}}});
  EXPECT_NE(svg.find("(log scale)"), std::string::npos);
  EXPECT_EQ(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(svg.find("off this scale"), std::string::npos);
}

TEST(SvgPlotTest, ALimitWithinTwiceTheDataStaysALineOnALinearAxis) {
  PlotOptions o;
  o.log_y = true;
  o.limit = 1048576;
  const std::string svg = RenderLineChart(o, {{"json", {{1, 300 << 10}, {2, 600 << 10}}}});
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_EQ(svg.find("off this scale"), std::string::npos);
  EXPECT_NE(svg.find(">1,000</text>"), std::string::npos);  // linear ticks reach the limit
}

TEST(SvgPlotTest, MarksAreDrawnWhereTheyCanBe) {
  PlotOptions o;
  o.log_x = true;
  PlotSeries s{"compact", {{10, 2048}, {1000, 4096}}};
  s.marks = {{1000, 4096, "search cap: still fits"}, {0, 4096, "not on a log axis"}};
  const std::string svg = RenderLineChart(o, {s});
  EXPECT_EQ(Count(svg, "class=\"mark\""), 1u);
  EXPECT_NE(svg.find(">search cap: still fits</text>"), std::string::npos);
  EXPECT_EQ(svg.find("not on a log axis"), std::string::npos);
}

TEST(SvgPlotTest, LongTitlesShrinkThenWrapOntoTwoLines) {
  PlotOptions o;
  o.title = std::string(60, 'a');
  std::string svg = RenderLineChart(o, {});
  EXPECT_EQ(Count(svg, "class=\"title\""), 1u);
  EXPECT_NE(svg.find("font-size=\"15.0\""), std::string::npos);
  o.title = std::string(120, 'a');  // 12-13 px fit 900 px
  svg = RenderLineChart(o, {});
  EXPECT_EQ(Count(svg, "class=\"title\""), 1u);
  EXPECT_EQ(svg.find("font-size=\"15.0\""), std::string::npos);
  o.title = "Secret size after 50 cycles against package size (20 components x 10 images, "
            "1 chart(s) each, values ~2048 B, events capped at 10, images pinned by digest)";
  svg = RenderLineChart(o, {});
  EXPECT_EQ(Count(svg, "class=\"title\""), 2u);
  EXPECT_NE(svg.find(">Secret size after 50 cycles against package size (20 components x 10 "
                     "images,</text>"),
            std::string::npos);
}

class BenchCmdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("bench-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  BenchGrowthOptions Options() const {
    BenchGrowthOptions o;
    o.out_dir = (dir_ / "out").string();
    o.cycles = 12;
    o.max_images = 50000;  // keeps the compressed codecs' searches short
    return o;
  }
  int Run(const BenchGrowthOptions& o) {
    out_.str("");
    err_.str("");
    return FinishCommand(RunBenchGrowth(o, out_, err_), err_);
  }
  std::string Read(const std::string& name) const { return testing::ReadFile(dir_ / "out" / name); }

  fs::path dir_;
  std::ostringstream out_, err_;
};

TEST_F(BenchCmdTest, WritesBothCsvsAndBothPlotsAndReportsEveryCodec) {
  ASSERT_EQ(Run(Options()), kExitOk) << err_.str();

  const std::string cycles = Read("growth-cycles.csv");
  EXPECT_EQ(cycles.rfind("cycle,codec,bytes\n", 0), 0u);
  EXPECT_EQ(Count(cycles, "\n"), 1u + 12 * 3);
  EXPECT_NE(cycles.find("\n12,compact,"), std::string::npos);
  const std::string sizes = Read("growth-size.csv");
  EXPECT_EQ(sizes.rfind("images,components,codec,bytes\n", 0), 0u);
  for (const char* codec : {",json,", ",gzip,", ",compact,"}) {
    EXPECT_GE(Count(sizes, codec), 8u) << codec;
  }
  for (const char* svg : {"growth-cycles.svg", "growth-size.svg"}) {
    const std::string text = Read(svg);
    EXPECT_EQ(text.rfind("<svg", 0), 0u) << svg;
    EXPECT_EQ(Count(text, "<polyline"), 3u) << svg;
    EXPECT_EQ(Count(text, "class=\"limit\""), 1u) << svg;
    EXPECT_TRUE(TagsBalance(text)) << svg;
  }

  const std::string table = out_.str();
  EXPECT_NE(table.find("LARGEST PACKAGE THAT FITS"), std::string::npos) << table;
  EXPECT_NE(table.find("\njson "), std::string::npos) << table;
  EXPECT_NE(table.find("(1.0x)"), std::string::npos) << table;
  // 50,000 images is the cap: compact fits it.
  EXPECT_NE(table.find(">= 5 x 10,000 = 50,000 images (search cap)"), std::string::npos) << table;
  EXPECT_NE(table.find("growth-size.svg"), std::string::npos) << table;
}

// Records what the stream held at each flush.
class FlushLog : public std::stringbuf {
 public:
  std::vector<std::string> flushed;

 protected:
  int sync() override {
    flushed.push_back(str());
    return 0;
  }
};

TEST_F(BenchCmdTest, RowsAreFlushedAsEachSearchEndsAndTheFitCsvNamesTheLimit) {
  BenchGrowthOptions o = Options();
  o.codecs = {"gzip", "json"};
  FlushLog log;
  std::ostream out(&log);
  std::ostringstream err;
  ASSERT_EQ(FinishCommand(RunBenchGrowth(o, out, err), err), kExitOk) << err.str();
  // The title alone, then each row (gzip's waits for json's, which it
  // compares with), each before the files are written.
  ASSERT_GE(log.flushed.size(), 3u);
  EXPECT_EQ(Count(log.flushed[0], "\n"), 1u) << log.flushed[0];
  EXPECT_NE(log.flushed[1].find("\ngzip "), std::string::npos) << log.flushed[1];
  EXPECT_NE(log.flushed[2].find("\njson "), std::string::npos) << log.flushed[2];
  EXPECT_EQ(log.flushed[2].find("wrote "), std::string::npos) << log.flushed[2];
  EXPECT_LT(log.str().find("\ngzip "), log.str().find("\njson "));
  const std::string fit = Read("growth-fit.csv");
  EXPECT_EQ(fit.rfind("codec,images,bytes,capped,limited_by\n", 0), 0u) << fit;
  EXPECT_NE(fit.find("\njson,"), std::string::npos) << fit;
  EXPECT_NE(fit.find(",false,secret-limit\n"), std::string::npos) << fit;
  EXPECT_NE(fit.find("gzip,50000,"), std::string::npos) << fit;
  EXPECT_NE(fit.find(",true,search-cap\n"), std::string::npos) << fit;
}

TEST_F(BenchCmdTest, JsonOutputHasTheLargestFitPerCodec) {
  BenchGrowthOptions o = Options();
  o.output.format = "json";
  o.codecs = {"json", "gzip"};
  ASSERT_EQ(Run(o), kExitOk) << err_.str();
  auto report = json::ParseJson(out_.str());
  ASSERT_TRUE(report.ok()) << out_.str();
  const json::Value* codecs = report->Find("codecs");
  ASSERT_NE(codecs, nullptr);
  ASSERT_EQ(codecs->array().size(), 2u);
  const json::Value& j = codecs->array()[0];
  EXPECT_EQ(j.StringOr("codec"), "json");
  const json::Value* fit = j.Find("largestFit");
  ASSERT_NE(fit, nullptr);
  EXPECT_EQ(fit->Find("capped")->as_bool(), false);
  EXPECT_EQ(fit->StringOr("limitedBy"), "secret-limit");
  EXPECT_LE(std::stoull(fit->Find("bytes")->number_raw()), kSecretSizeLimit);
  EXPECT_GT(std::stoull(fit->Find("nextBytes")->number_raw()), kSecretSizeLimit);
  EXPECT_EQ(j.Find("imagesVsJson")->number_raw(), "1.00");
  EXPECT_EQ(Count(Read("growth-cycles.csv"), "\n"), 1u + 12 * 2);
}

TEST_F(BenchCmdTest, WideAndNoHeadersAndYaml) {
  BenchGrowthOptions o = Options();
  o.codecs = {"json"};
  o.output.format = "wide";
  o.output.no_headers = true;
  ASSERT_EQ(Run(o), kExitOk) << err_.str();
  // One row, no title, header or file list; wide adds the exact bytes.
  const std::string row = out_.str();
  EXPECT_EQ(row.rfind("json ", 0), 0u) << row;
  EXPECT_EQ(Count(row, "\n"), 1u) << row;
  o.output.no_headers = false;
  ASSERT_EQ(Run(o), kExitOk) << err_.str();
  EXPECT_NE(out_.str().find("   FIT BYTES\n"), std::string::npos) << out_.str();
  o.output.format = "yaml";
  ASSERT_EQ(Run(o), kExitOk) << err_.str();
  auto docs = yaml::ParseDocuments(out_.str());
  ASSERT_TRUE(docs.ok()) << out_.str();
  EXPECT_EQ(docs->at(0).Find("codecs")->array().size(), 1u);
}

TEST_F(BenchCmdTest, BadFlagsAreUsageErrors) {
  BenchGrowthOptions o = Options();
  o.output.format = "xml";
  EXPECT_EQ(Run(o), kExitUsage);
  o.output.format = "name";  // no names to print
  EXPECT_EQ(Run(o), kExitUsage);
  EXPECT_EQ(out_.str(), "");
  o = Options();
  o.codecs = {"json", "brotli"};
  EXPECT_EQ(Run(o), kExitUsage);
  EXPECT_NE(err_.str().find("brotli"), std::string::npos);
  o = Options();
  o.cycles = 0;
  EXPECT_EQ(Run(o), kExitUsage);
  o = Options();
  o.shape.images_per_component = 0;
  EXPECT_EQ(Run(o), kExitUsage);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
}  // namespace zs::tools
