// The growth simulation behind `zarf-state bench growth` (docs/model.md section 3):
// how big a package's Secret gets over many deploy/upgrade/remove cycles, how
// that depends on the package's size, and how big a package can get before
// its Secret no longer fits under the API server's 1 MiB limit — per codec.
//
// Every snapshot measured here is produced by engine::Lifecycle from a
// synthetic but realistic ZarfPackage (see PackageShape), so it is exactly
// the DeployedPackage zarf-state would write after the same operations,
// events capped at `max_events`. The simulation is deterministic: a fixed
// clock and fixed pseudo-random digests, so two runs give the same bytes.
//
// The cycle schedule (cycle c counts from 1; version 1.<c>.0 is deployed):
//   * every cycle upgrades to version 1.<c>.0 (every component deployed);
//   * every kFailEvery-th cycle that upgrade fails at one component: the
//     components before it succeed, it fails, the rest are not reached;
//   * every kRemoveEvery-th cycle, after the upgrade, one component is
//     removed and then deployed again.
// A plain cycle appends 2 package events, a remove cycle 6.
//
// Thread safety: all functions are reentrant; nothing is shared.
#ifndef ZARF_STATE_REPORT_GROWTH_SIM_H_
#define ZARF_STATE_REPORT_GROWTH_SIM_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json_value.h"
#include "model/model.h"
#include "base/status.h"

namespace zs::tools {

// The label of the mark where a largest-fit search stopped at its cap.
inline constexpr const char* kSearchCapLabel = "search cap: still fits";
// The label of the mark where the codec refused the next larger package:
// compact's reader decodes at most 16 MiB (compact/compact.h), so a compact
// Secret stops there, far under the 1 MiB limit.
inline constexpr const char* kDecoderBudgetLabel = "decoder budget: 16 MiB decoded";

inline constexpr int kFailEvery = 4;
inline constexpr int kRemoveEvery = 5;
// The schedule repeats every lcm(kFailEvery, kRemoveEvery) cycles.
inline constexpr int kSchedulePeriod = 20;

// The shape of the simulated package: components `component-<c>`, each with
// charts `chart-<c>-<k>` (name, version, namespace, url, valuesFiles) and
// images `ghcr.io/acme/app-<c>-<i>:1.<v>.0`, under a Zarf-like metadata and
// build section. Such image names differ only in their numbers, which
// compressors exploit better than they can with the more varied names of a
// real package: gzip and compact do best here, and pin_digests gives the
// pessimistic bound.
struct PackageShape {
  int components = 5;            // default 5
  int images_per_component = 4;  // default 4
  int charts_per_component = 1;  // default 1
  // Approximate size of the DeployConfig `Values` object, as JSON. Default 512.
  std::size_t values_bytes = 512;
  // Events a Secret keeps (docs/model.md rule 2). Default 10.
  std::size_t max_events = 10;
  // Pin every image by digest (`...:1.4.0@sha256:<64 hex>`), as hardened
  // packages do. Digests are random to a compressor. Default false.
  bool pin_digests = false;

  int images() const { return components * images_per_component; }
};

// Bounds of a shape: far beyond any real package, small enough that
// counts do not overflow and a simulation cannot exhaust memory by a typo.
inline constexpr int kMaxComponents = 10000;
inline constexpr std::int64_t kMaxImages = 10000000;  // in the whole package
inline constexpr int kMaxCharts = 1000;               // per component
inline constexpr std::size_t kMaxValuesBytes = 64u << 20;
inline constexpr std::size_t kMaxEvents = 100000;

// InvalidArgument naming the field when a count is out of range:
// 1..kMaxComponents components, 1 or more images per component and at most
// kMaxImages in all, 0..kMaxCharts charts per component, values_bytes up to
// kMaxValuesBytes, 1..kMaxEvents events.
Status ValidateShape(const PackageShape& shape);

// The ZarfPackage definition (`data`, as Zarf v0.84.0 stores it:
// model/zarf_package.h) of `shape` at upgrade `version` (the `<v>` of
// 1.<v>.0), and the DeployConfig the deploy is given (its `Values`
// object is about shape.values_bytes of JSON).
json::Value MakePackageDefinition(const PackageShape& shape, int version);
json::Value MakeDeployConfig(const PackageShape& shape, int version);

// One way of storing a DeployedPackage in a Secret, by the bytes the API
// server counts against kSecretSizeLimit (the decoded `data` values).
struct Codec {
  std::string name;
  std::function<Result<std::size_t>(const DeployedPackage&)> secret_bytes;
};

// `json`: the Zarf JSON payload as is.
Codec JsonCodec();
// `gzip`: Helm's way, base64(gzip -9 of the JSON) as the data value; the
// server counts the base64 text.
Codec GzipCodec();
// `compact`: the compact envelope (compact/compact.h) as the data value.
Codec CompactCodec();
// json, gzip, compact, in that order.
std::vector<Codec> AllCodecs();

// The Secret size of one codec after one cycle.
struct GrowthPoint {
  int cycle = 0;
  std::string codec;
  std::size_t bytes = 0;
};

// Runs `cycles` cycles of the schedule on `shape` and measures the snapshot
// with every codec after each: cycles * codecs.size() points, cycle-major.
// InvalidArgument for a bad shape or cycles < 1; any engine or codec error
// is returned with the cycle it happened in.
Result<std::vector<GrowthPoint>> SimulateCycles(const PackageShape& shape, int cycles,
                                                const std::vector<Codec>& codecs);

// Cycles after which the `events` of a Secret hold max_events events for
// good; from then on its size changes only with the version strings.
int CyclesToFillEvents(std::size_t max_events);

// The first cycle whose events still show in the Secret after `cycle`
// cycles: the Secret after cycles TailStart(..)..cycle of a fresh package
// equals the one after cycles 1..cycle, except for the `generation` and
// `observedGeneration` counters and the order of `deployedComponents` (a
// removed and redeployed component moves to the end). The tail starts with
// an upgrade that succeeds, so every component is in it.
int TailStart(int cycle, std::size_t max_events);

// The Secret size per codec (in the order of `codecs`) after `cycle` cycles,
// simulating only the tail (TailStart) so that measuring a large package at
// a late cycle stays cheap. Errors as SimulateCycles.
Result<std::vector<std::size_t>> SizesAfter(const PackageShape& shape, int cycle,
                                            const std::vector<Codec>& codecs);

// The Secret size of one codec for one package size.
struct SizePoint {
  int components = 0;
  int images_per_component = 0;
  std::string codec;
  std::size_t bytes = 0;
};

// SizesAfter(`cycle`) for each images-per-component count in
// `images_per_component` (components fixed at shape.components), one point
// per count and codec, count-major.
Result<std::vector<SizePoint>> SweepSizes(const PackageShape& shape,
                                          const std::vector<int>& images_per_component, int cycle,
                                          const std::vector<Codec>& codecs);

// The largest package that fits, found by LargestFitting.
struct FitResult {
  int components = 0;
  // 0 when even one image per component does not fit.
  int images_per_component = 0;
  std::size_t bytes = 0;  // its Secret size (<= kSecretSizeLimit)
  // With one more image per component (> limit); 0 when the codec refused
  // to encode that package at all (Status::kTooLarge).
  std::size_t next_bytes = 0;
  bool capped = false;         // the search stopped at max_images: it fits
  int probes = 0;              // simulations run
  // Every probe: (images per component, Secret size), in the order run.
  std::vector<std::pair<int, std::size_t>> probed;
  int images() const { return components * images_per_component; }
  // What ended the search: the 1 MiB Secret limit ("secret-limit"), the
  // codec refusing the next package (next_bytes 0: the decoder budget,
  // "decoder-budget") or max_images ("search-cap").
  std::string_view limited_by() const {
    if (capped) return "search-cap";
    return next_bytes == 0 ? "decoder-budget" : "secret-limit";
  }
};

struct FitOptions {
  // Measure the Secret as it is after this many cycles. Default 0:
  // CyclesToFillEvents(max_events), the start of the plateau.
  int cycle = 0;
  // Stop searching at this many images in total (at most kMaxImages).
  // Default 500,000: compact fits more of the default shape's images than
  // that, but one zstd -19 probe of a 1,000,000-image package takes about
  // 15 s on a 2-core machine.
  int max_images = 500000;
};

// The largest images_per_component (components fixed at shape.components;
// the other fields of `shape` kept) whose Secret after opts.cycle cycles
// (SizesAfter) is at most kSecretSizeLimit with `codec`, while one more
// image per component exceeds it. Scaling images only is the worst case for
// the Secret: components add events and charts too, but images are what a
// big package has most of. The search brackets the boundary by
// extrapolating the last two sizes (sizes grow almost linearly with images),
// then narrows it by interpolation safeguarded by bisection, so it needs few
// large simulations. It assumes sizes grow with the image count; the answer
// always satisfies fits(n) && !fits(n + 1) as measured. A package the codec
// refuses with TooLarge does not fit; any other error is returned as in
// SimulateCycles.
Result<FitResult> LargestFitting(const PackageShape& shape, const Codec& codec,
                                 const FitOptions& opts = {});

}  // namespace zs::tools

#endif  // ZARF_STATE_REPORT_GROWTH_SIM_H_
