#include "report/growth_sim.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "base/hex.h"
#include "compact/compact.h"
#include "json/json_reader.h"
#include "compact/gzip.h"
#include "model/model_json.h"
#include "kube/secret.h"
#include "model/zarf_package.h"
#include "engine/event_log.h"
#include "engine/lifecycle.h"

namespace zs::tools {
namespace {

using json::Value;

constexpr std::string_view kPackageName = "growth-sim";
constexpr std::string_view kCliVersion = "v0.84.0";

// splitmix64: a fixed-seed source for digests, words and clock jitter.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string HexDigest(std::uint64_t seed) {
  std::string out = "sha256:";
  std::uint64_t state = seed;
  for (int word = 0; word < 4; ++word) {
    state = Mix(state);
    for (int i = 0; i < 16; ++i) out += HexDigit(static_cast<unsigned>(state >> (4 * i)));
  }
  return out;
}

std::string Version(int v) { return "1." + std::to_string(v) + ".0"; }

std::string ComponentName(int c) { return "component-" + std::to_string(c); }

std::string ChartName(int c, int k) {
  return "chart-" + std::to_string(c) + "-" + std::to_string(k);
}

Value Str(std::string s) { return Value::String(std::move(s)); }

// Zarf stamps the deploy's time; the simulation ticks 1-2 s per event with
// nanoseconds that never end in 0, so every timestamp has the same length
// (Go trims trailing fractional zeros).
engine::Clock SimClock() {
  constexpr std::int64_t kStart = 1767225600LL * 1000000000LL;  // 2026-01-01T00:00:00Z
  // (unix nanoseconds, PRNG state)
  auto state = std::make_shared<std::pair<std::int64_t, std::uint64_t>>(kStart, 0);
  return [state] {
    state->second = Mix(state->second);
    state->first += 1000000000LL + static_cast<std::int64_t>(state->second % 1000000000ULL);
    if (state->first % 2 == 0) ++state->first;
    return Timestamp::FromUnixNanos(state->first);
  };
}

// The log only has to accept records: Lifecycle folds them itself and reads
// the log only when opened. Not keeping them (and not hashing them for
// deduplication) keeps the large-package probes cheap; the snapshot is the
// same as with any other log.
class DiscardingLog : public engine::EventLog {
 public:
  Result<engine::AppendResult> Append(std::string_view, const engine::Record&) override {
    return engine::AppendResult{++size_, true};
  }
  Result<std::vector<engine::Record>> Read(std::string_view, std::uint64_t,
                                           std::uint64_t) const override {
    return std::vector<engine::Record>{};
  }
  Result<std::uint64_t> Size(std::string_view) const override { return size_; }
  Result<std::vector<std::string>> Packages() const override { return std::vector<std::string>{}; }

 private:
  std::uint64_t size_ = 0;
};

// One simulated package: a Lifecycle over its own log.
class Simulation {
 public:
  static Result<std::unique_ptr<Simulation>> Start(const PackageShape& shape) {
    ZS_RETURN_IF_ERROR(ValidateShape(shape));
    auto sim = std::unique_ptr<Simulation>(new Simulation(shape));
    ZS_ASSIGN_OR_RETURN(engine::Lifecycle lc,
                        engine::Lifecycle::Open(&sim->log_, std::string(kPackageName),
                                                engine::FoldOptions{shape.max_events}, SimClock()));
    sim->lifecycle_ = std::make_unique<engine::Lifecycle>(std::move(lc));
    return sim;
  }

  // Cycle `c` of the schedule in growth_sim.h.
  Status RunCycle(int c) {
    engine::DeployRequest req;
    req.package = MakePackageDefinition(shape_, c);
    req.package_digest = HexDigest(0x5eed0000ULL + static_cast<std::uint64_t>(c));
    req.source = "oci://ghcr.io/acme/packages/" + std::string(kPackageName) + ":" + Version(c);
    req.cli_version = std::string(kCliVersion);
    req.config = MakeDeployConfig(shape_, c);
    engine::Lifecycle& lc = *lifecycle_;

    const int fail_at = c % kFailEvery == 0 ? (c / kFailEvery) % shape_.components : -1;
    ZS_RETURN_IF_ERROR(lc.BeginDeploy(req));
    for (int k = 0; k < shape_.components; ++k) {
      ZS_RETURN_IF_ERROR(lc.ComponentStarted(ComponentName(k)));
      if (k == fail_at) {
        ZS_RETURN_IF_ERROR(lc.ComponentFailed(ComponentName(k)));
        break;
      }
      ZS_RETURN_IF_ERROR(lc.ComponentSucceeded(ComponentName(k), Charts(k)));
    }
    ZS_RETURN_IF_ERROR(lc.FinishDeploy(fail_at >= 0 ? kOutcomeFailed : kOutcomeSucceeded));

    if (c % kRemoveEvery == 0) {
      const int r = (c / kRemoveEvery) % shape_.components;
      ZS_RETURN_IF_ERROR(lc.BeginRemove(engine::RemoveRequest{}));
      ZS_RETURN_IF_ERROR(lc.ComponentRemoving(ComponentName(r)));
      ZS_RETURN_IF_ERROR(lc.ComponentRemoved(ComponentName(r)));
      ZS_RETURN_IF_ERROR(lc.FinishRemove(kOutcomeSucceeded));
      ZS_RETURN_IF_ERROR(lc.BeginDeploy(req));
      ZS_RETURN_IF_ERROR(lc.ComponentStarted(ComponentName(r)));
      ZS_RETURN_IF_ERROR(lc.ComponentSucceeded(ComponentName(r), Charts(r)));
      ZS_RETURN_IF_ERROR(lc.FinishDeploy(kOutcomeSucceeded));
    }
    return Status::OK();
  }

  const DeployedPackage& snapshot() const { return lifecycle_->snapshot(); }

 private:
  explicit Simulation(const PackageShape& shape) : shape_(shape) {}

  std::vector<InstalledChart> Charts(int c) const {
    std::vector<InstalledChart> charts(static_cast<std::size_t>(shape_.charts_per_component));
    for (int k = 0; k < shape_.charts_per_component; ++k) {
      charts[static_cast<std::size_t>(k)].namespace_ = "ns-" + std::to_string(c);
      charts[static_cast<std::size_t>(k)].chart_name = ChartName(c, k);
    }
    return charts;
  }

  PackageShape shape_;
  DiscardingLog log_;
  std::unique_ptr<engine::Lifecycle> lifecycle_;
};

int EventsIn(int cycle) { return cycle % kRemoveEvery == 0 ? 6 : 2; }

}  // namespace

int CyclesToFillEvents(std::size_t max_events) {
  std::size_t events = 0;
  int c = 0;
  while (events < max_events) events += static_cast<std::size_t>(EventsIn(++c));
  return c;
}

int TailStart(int cycle, std::size_t max_events) {
  std::size_t events = 0;
  int c = cycle;
  for (; c > 1; --c) {
    events += static_cast<std::size_t>(EventsIn(c));
    if (events >= max_events && c % kFailEvery != 0) break;
  }
  return c;
}

Result<std::vector<std::size_t>> SizesAfter(const PackageShape& shape, int cycle,
                                            const std::vector<Codec>& codecs) {
  if (cycle < 1) return Status::InvalidArgument("cycles must be at least 1");
  ZS_ASSIGN_OR_RETURN(auto sim, Simulation::Start(shape));
  for (int c = TailStart(cycle, shape.max_events); c <= cycle; ++c) {
    ZS_RETURN_IF_ERROR(sim->RunCycle(c).WithContext("cycle " + std::to_string(c)));
  }
  std::vector<std::size_t> sizes;
  for (const Codec& codec : codecs) {
    auto bytes = codec.secret_bytes(sim->snapshot());
    if (!bytes.ok()) return bytes.status().WithContext("codec " + codec.name);
    sizes.push_back(*bytes);
  }
  return sizes;
}

Status ValidateShape(const PackageShape& s) {
  auto out_of_range = [](std::string_view what, std::int64_t lo, std::int64_t hi) {
    return Status::InvalidArgument(std::string(what) + " must be between " + std::to_string(lo) +
                                   " and " + std::to_string(hi));
  };
  if (s.components < 1 || s.components > kMaxComponents) {
    return out_of_range("components", 1, kMaxComponents);
  }
  if (s.images_per_component < 1 ||
      std::int64_t{s.images_per_component} * s.components > kMaxImages) {
    return out_of_range("images (components x images per component)", 1, kMaxImages);
  }
  if (s.charts_per_component < 0 || s.charts_per_component > kMaxCharts) {
    return out_of_range("charts per component", 0, kMaxCharts);
  }
  if (s.values_bytes > kMaxValuesBytes) return out_of_range("values bytes", 0, kMaxValuesBytes);
  if (s.max_events < 1 || s.max_events > kMaxEvents) return out_of_range("max events", 1, kMaxEvents);
  return Status::OK();
}

json::Value MakePackageDefinition(const PackageShape& shape, int version) {
  // Members are moved in one by one: building from an initializer list would
  // deep-copy the (possibly huge) image lists.
  const std::string v = Version(version);
  Value components = Value::MakeArray();
  components.array().reserve(static_cast<std::size_t>(shape.components));
  for (int c = 0; c < shape.components; ++c) {
    Value charts = Value::MakeArray();
    for (int k = 0; k < shape.charts_per_component; ++k) {
      const std::string name = ChartName(c, k);
      charts.array().push_back(Value::MakeObject({
          {"name", Str(name)},
          {"version", Str(v)},
          {"namespace", Str("ns-" + std::to_string(c))},
          {"url", Str("oci://ghcr.io/acme/charts/" + name)},
          {"valuesFiles", Value::MakeArray({Str("values/" + name + ".yaml")})},
      }));
    }
    Value images = Value::MakeArray();
    images.array().reserve(static_cast<std::size_t>(shape.images_per_component));
    const std::string prefix = "ghcr.io/acme/app-" + std::to_string(c) + "-";
    for (int i = 0; i < shape.images_per_component; ++i) {
      std::string ref;
      ref.reserve(prefix.size() + 16 + v.size() + (shape.pin_digests ? 72 : 0));
      ref.append(prefix).append(std::to_string(i)).append(":").append(v);
      if (shape.pin_digests) {
        ref.append("@").append(HexDigest((static_cast<std::uint64_t>(version) << 48) ^
                                         (static_cast<std::uint64_t>(c) << 24) ^
                                         static_cast<std::uint64_t>(i)));
      }
      images.array().push_back(Str(std::move(ref)));
    }
    Value component = Value::MakeObject({
        {"name", Str(ComponentName(c))},
        {"description", Str("Workload " + std::to_string(c) + " of the growth simulation")},
        {"required", Value::Bool(true)},
    });
    component.object().emplace_back("charts", std::move(charts));
    component.object().emplace_back("images", std::move(images));
    components.array().push_back(std::move(component));
  }
  Value pkg = Value::MakeObject({
      {"kind", Str("ZarfPackageConfig")},
      {"metadata", Value::MakeObject({{"name", Str(std::string(kPackageName))},
                                      {"description", Str("Synthetic package for bench growth")},
                                      {"version", Str(v)}})},
      {"build", Value::MakeObject({{"terminal", Str("ci-runner-7")},
                                   {"user", Str("ci")},
                                   {"architecture", Str("amd64")},
                                   {"timestamp", Str("Thu, 01 Jan 2026 00:00:00 +0000")},
                                   {"version", Str(std::string(kCliVersion))}})},
  });
  pkg.object().emplace_back("components", std::move(components));
  // Zarf stores json.Marshal of its ZarfPackage: the zero-valued structs each
  // component gains (`only`, `import`, `actions`, ...) are part of what this
  // simulation measures. The definition is ours and valid: both steps succeed.
  Result<std::string> stored = MarshalZarfPackage(pkg, nullptr);
  assert(stored.ok());
  if (!stored.ok()) return pkg;
  Result<Value> tree = json::ParseJson(*stored);
  assert(tree.ok());
  return tree.ok() ? std::move(*tree) : pkg;
}

json::Value MakeDeployConfig(const PackageShape& shape, int version) {
  static constexpr std::string_view kWords[] = {"enabled", "replicas", "ingress", "tls",   "memory",
                                                "cpu",     "limits",   "storage", "class", "backup",
                                                "metrics", "labels",   "policy",  "region"};
  constexpr std::size_t kWordCount = sizeof kWords / sizeof kWords[0];
  Value settings = Value::MakeObject();
  // Measured as written: `{"global":{...},"settings":{...}}` with members
  // `"opt-N":"w w w",`.
  std::size_t approx = 96;
  std::uint64_t state = 0x7a1e5ULL;
  for (int n = 0; approx < shape.values_bytes; ++n) {
    std::string text;
    for (int w = 0; w < 4; ++w) {
      state = Mix(state);
      if (w > 0) text += ' ';
      text += kWords[state % kWordCount];
    }
    const std::string key = "opt-" + std::to_string(n);
    approx += key.size() + text.size() + 6;
    settings.object().emplace_back(key, Str(std::move(text)));
  }
  Value values = Value::MakeObject({
      {"global", Value::MakeObject({{"imageTag", Str(Version(version))},
                                    {"domain", Str("apps.example.internal")}})},
  });
  values.object().emplace_back("settings", std::move(settings));
  Value config = Value::MakeObject({
      {"SetVariables",
       Value::MakeObject({{"DOMAIN", Str("apps.example.internal")}, {"LOG_LEVEL", Str("info")}})},
  });
  config.object().emplace_back("Values", std::move(values));
  return config;
}

Codec JsonCodec() {
  return {"json", [](const DeployedPackage& p) -> Result<std::size_t> {
            return EncodeDeployedPackage(p).size();
          }};
}

Codec GzipCodec() {
  return {"gzip", [](const DeployedPackage& p) -> Result<std::size_t> {
            ZS_ASSIGN_OR_RETURN(std::string gz, Gzip(EncodeDeployedPackage(p), 9));
            // The length of Base64Encode(gz), without building it.
            return (gz.size() + 2) / 3 * 4;
          }};
}

Codec CompactCodec() {
  return {"compact", [](const DeployedPackage& p) -> Result<std::size_t> {
            ZS_ASSIGN_OR_RETURN(std::string bytes, compact::Encode(p));
            return bytes.size();
          }};
}

std::vector<Codec> AllCodecs() { return {JsonCodec(), GzipCodec(), CompactCodec()}; }

Result<std::vector<GrowthPoint>> SimulateCycles(const PackageShape& shape, int cycles,
                                                const std::vector<Codec>& codecs) {
  if (cycles < 1) return Status::InvalidArgument("cycles must be at least 1");
  ZS_ASSIGN_OR_RETURN(auto sim, Simulation::Start(shape));
  std::vector<GrowthPoint> points;
  points.reserve(static_cast<std::size_t>(cycles) * codecs.size());
  for (int c = 1; c <= cycles; ++c) {
    const std::string where = "cycle " + std::to_string(c);
    ZS_RETURN_IF_ERROR(sim->RunCycle(c).WithContext(where));
    for (const Codec& codec : codecs) {
      auto bytes = codec.secret_bytes(sim->snapshot());
      if (!bytes.ok()) return bytes.status().WithContext(where + ": codec " + codec.name);
      points.push_back({c, codec.name, *bytes});
    }
  }
  return points;
}

Result<std::vector<SizePoint>> SweepSizes(const PackageShape& shape,
                                          const std::vector<int>& images_per_component, int cycle,
                                          const std::vector<Codec>& codecs) {
  std::vector<SizePoint> points;
  for (int n : images_per_component) {
    PackageShape s = shape;
    s.images_per_component = n;
    auto sizes = SizesAfter(s, cycle, codecs);
    if (!sizes.ok()) return sizes.status().WithContext(std::to_string(s.images()) + " images");
    for (std::size_t i = 0; i < codecs.size(); ++i) {
      points.push_back({s.components, n, codecs[i].name, (*sizes)[i]});
    }
  }
  return points;
}

namespace {

// A package the codec refuses as too large (Status::kTooLarge) does not fit
// either; its size is unknown.
constexpr std::size_t kUnencodable = SIZE_MAX;

// The Secret size with n images per component, or kUnencodable.
using MeasureFn = std::function<Result<std::size_t>(int n)>;

// The search's bracket: fits(lo) with size s_lo; once hi > 0, !fits(hi)
// with size s_hi. prev and s_prev: the fitting probe before lo (0: none).
struct Bracket {
  int lo = 1;
  std::size_t s_lo = 0;
  int hi = 0;
  std::size_t s_hi = 0;
  int prev = 0;
  double s_prev = 0;
};

// Finds hi: extrapolates the line through the last two fitting sizes,
// aiming a little past the limit. Returns with hi still 0 when lo reached
// `cap` while it fits.
Status FindUpperBound(const MeasureFn& measure, int cap, Bracket* b) {
  const double limit = static_cast<double>(kSecretSizeLimit);
  while (b->hi == 0 && b->lo < cap) {
    const int lo = b->lo;
    const double s_lo = static_cast<double>(b->s_lo);
    const double per_image = b->prev == 0 ? s_lo / lo : (s_lo - b->s_prev) / (lo - b->prev);
    double guess = per_image > 0 ? lo + (limit * 1.02 - s_lo) / per_image : 2.0 * lo;
    // Far beyond the cap: go there at once (one large probe instead of a
    // few), else grow at most 16-fold, as small packages extrapolate badly.
    guess = guess >= 1.5 * cap ? cap : std::clamp(guess, lo + 1.0, 16.0 * lo);
    const int n = static_cast<int>(std::min<double>(std::ceil(guess), cap));
    ZS_ASSIGN_OR_RETURN(std::size_t s, measure(n));
    if (s <= kSecretSizeLimit) {
      b->prev = lo;
      b->s_prev = s_lo;
      b->lo = n;
      b->s_lo = s;
    } else {
      b->hi = n;
      b->s_hi = s;
    }
  }
  return Status::OK();
}

// Narrows the bracket to hi == lo + 1: regula falsi with the Illinois fix
// (an end kept twice in a row has its weight halved, so the guess moves
// past the boundary instead of creeping towards it). Each round probes
// floor(guess) and its neighbour across the boundary, so a good guess
// closes the bracket at once. Sizes are noisy at the scale of single images
// (compression, base64 padding): after three rounds that did not halve the
// bracket, bisect once.
Status Narrow(const MeasureFn& measure, Bracket* b) {
  const double limit = static_cast<double>(kSecretSizeLimit);
  double f_lo = static_cast<double>(b->s_lo) - limit;  // <= 0
  double f_hi = static_cast<double>(b->s_hi) - limit;  // > 0
  auto probe = [&](int n) -> Status {
    ZS_ASSIGN_OR_RETURN(std::size_t s, measure(n));
    if (s <= kSecretSizeLimit) {
      b->lo = n;
      b->s_lo = s;
      f_lo = static_cast<double>(s) - limit;
    } else {
      b->hi = n;
      b->s_hi = s;
      f_hi = static_cast<double>(s) - limit;
    }
    return Status::OK();
  };
  int kept_lo = 0, kept_hi = 0, slow_rounds = 0;
  while (b->hi - b->lo > 1) {
    const int width = b->hi - b->lo;
    const bool bisect = slow_rounds >= 3 || b->s_hi == kUnencodable;
    int g = bisect ? b->lo + width / 2
                   : b->lo + static_cast<int>(std::floor(-f_lo * width / (f_hi - f_lo)));
    g = std::clamp(g, b->lo + 1, b->hi - 1);
    const int old_lo = b->lo, old_hi = b->hi;
    ZS_RETURN_IF_ERROR(probe(g));
    if (b->lo == g && g + 1 < b->hi) ZS_RETURN_IF_ERROR(probe(g + 1));
    if (b->hi == g && g - 1 > b->lo) ZS_RETURN_IF_ERROR(probe(g - 1));
    kept_lo = b->lo == old_lo ? kept_lo + 1 : 0;
    kept_hi = b->hi == old_hi ? kept_hi + 1 : 0;
    if (kept_lo >= 2) f_lo /= 2;
    if (kept_hi >= 2) f_hi /= 2;
    slow_rounds = (b->hi - b->lo) * 2 > width && slow_rounds < 3 ? slow_rounds + 1 : 0;
  }
  return Status::OK();
}

}  // namespace

Result<FitResult> LargestFitting(const PackageShape& shape, const Codec& codec,
                                 const FitOptions& opts) {
  ZS_RETURN_IF_ERROR(ValidateShape(shape));
  const int cycle = opts.cycle > 0 ? opts.cycle : CyclesToFillEvents(shape.max_events);
  const std::int64_t max_images = std::min<std::int64_t>(opts.max_images, kMaxImages);
  const int cap = static_cast<int>(std::max<std::int64_t>(1, max_images / shape.components));

  FitResult fit;
  fit.components = shape.components;
  const MeasureFn measure = [&](int n) -> Result<std::size_t> {
    PackageShape s = shape;
    s.images_per_component = n;
    ++fit.probes;
    auto sizes = SizesAfter(s, cycle, {codec});
    if (!sizes.ok() && sizes.status().code() == Status::Code::kTooLarge) return kUnencodable;
    if (!sizes.ok()) return sizes.status().WithContext(std::to_string(s.images()) + " images");
    fit.probed.push_back({n, sizes->front()});
    return sizes->front();
  };

  Bracket b;
  ZS_ASSIGN_OR_RETURN(b.s_lo, measure(1));
  if (b.s_lo > kSecretSizeLimit) {
    fit.next_bytes = b.s_lo == kUnencodable ? 0 : b.s_lo;
    return fit;
  }
  ZS_RETURN_IF_ERROR(FindUpperBound(measure, cap, &b));
  if (b.hi == 0) {
    fit.images_per_component = b.lo;
    fit.bytes = b.s_lo;
    fit.capped = true;
    return fit;
  }
  ZS_RETURN_IF_ERROR(Narrow(measure, &b));
  fit.images_per_component = b.lo;
  fit.bytes = b.s_lo;
  fit.next_bytes = b.s_hi == kUnencodable ? 0 : b.s_hi;
  return fit;
}

}  // namespace zs::tools
