#include "tools/growth_sim.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>

#include "codec/compact.h"
#include "codec/gzip.h"
#include "codec/model_json.h"
#include "codec/secret.h"
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
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  std::uint64_t state = seed;
  for (int word = 0; word < 4; ++word) {
    state = Mix(state);
    for (int i = 0; i < 16; ++i) out += kHex[(state >> (4 * i)) & 0xf];
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
  auto state = std::make_shared<std::pair<std::int64_t, std::uint64_t>>(
      1767225600LL * 1000000000LL, 0);  // 2026-01-01T00:00:00Z
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
  Result<std::vector<std::string>> Packages() const override {
    return std::vector<std::string>{};
  }

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
                                                engine::FoldOptions{shape.max_events},
                                                SimClock()));
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

// Runs `cycles` cycles and measures the final snapshot with `codec`.
Result<std::size_t> SizeAfter(const PackageShape& shape, int cycles, const Codec& codec) {
  ZS_ASSIGN_OR_RETURN(auto sim, Simulation::Start(shape));
  for (int c = 1; c <= cycles; ++c) {
    ZS_RETURN_IF_ERROR(sim->RunCycle(c).WithContext("cycle " + std::to_string(c)));
  }
  ZS_ASSIGN_OR_RETURN(std::size_t bytes, codec.secret_bytes(sim->snapshot()));
  return bytes;
}

}  // namespace

Status ValidateShape(const PackageShape& s) {
  if (s.components < 1) return Status::InvalidArgument("components must be at least 1");
  if (s.images_per_component < 1) {
    return Status::InvalidArgument("images per component must be at least 1");
  }
  if (s.charts_per_component < 0) return Status::InvalidArgument("charts must not be negative");
  if (s.max_events < 1) return Status::InvalidArgument("max events must be at least 1");
  return Status::OK();
}

json::Value MakePackageDefinition(const PackageShape& shape, int version) {
  const std::string v = Version(version);
  Value components = Value::MakeArray();
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
    for (int i = 0; i < shape.images_per_component; ++i) {
      std::string ref = "ghcr.io/acme/app-" + std::to_string(c) + "-" + std::to_string(i) + ":" + v;
      if (shape.pin_digests) {
        ref += "@" + HexDigest((static_cast<std::uint64_t>(version) << 48) ^
                               (static_cast<std::uint64_t>(c) << 24) ^ static_cast<std::uint64_t>(i));
      }
      images.array().push_back(Str(std::move(ref)));
    }
    components.array().push_back(Value::MakeObject({
        {"name", Str(ComponentName(c))},
        {"description", Str("Workload " + std::to_string(c) + " of the growth simulation")},
        {"required", Value::Bool(true)},
        {"charts", std::move(charts)},
        {"images", std::move(images)},
    }));
  }
  return Value::MakeObject({
      {"kind", Str("ZarfPackageConfig")},
      {"metadata", Value::MakeObject({{"name", Str(std::string(kPackageName))},
                                      {"description", Str("Synthetic package for bench growth")},
                                      {"version", Str(v)}})},
      {"build", Value::MakeObject({{"terminal", Str("ci-runner-7")},
                                   {"user", Str("ci")},
                                   {"architecture", Str("amd64")},
                                   {"timestamp", Str("Thu, 01 Jan 2026 00:00:00 +0000")},
                                   {"version", Str(std::string(kCliVersion))}})},
      {"components", std::move(components)},
  });
}

json::Value MakeDeployConfig(const PackageShape& shape, int version) {
  static constexpr std::string_view kWords[] = {
      "enabled", "replicas", "ingress", "tls",     "memory", "cpu",    "limits",
      "storage", "class",    "backup",  "metrics", "labels", "policy", "region"};
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
      {"settings", std::move(settings)},
  });
  return Value::MakeObject({
      {"SetVariables", Value::MakeObject({{"DOMAIN", Str("apps.example.internal")},
                                          {"LOG_LEVEL", Str("info")}})},
      {"Values", std::move(values)},
  });
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

int CyclesToFillEvents(std::size_t max_events) {
  std::size_t events = 0;
  int c = 0;
  while (events < max_events) {
    ++c;
    events += c % kRemoveEvery == 0 ? 6 : 2;
  }
  return c;
}

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
                                          const std::vector<int>& images_per_component,
                                          int cycles, const std::vector<Codec>& codecs) {
  if (cycles < 1) return Status::InvalidArgument("cycles must be at least 1");
  std::vector<SizePoint> points;
  for (int n : images_per_component) {
    PackageShape s = shape;
    s.images_per_component = n;
    ZS_ASSIGN_OR_RETURN(auto sim, Simulation::Start(s));
    const std::string where = std::to_string(s.images()) + " images";
    for (int c = 1; c <= cycles; ++c) ZS_RETURN_IF_ERROR(sim->RunCycle(c).WithContext(where));
    for (const Codec& codec : codecs) {
      auto bytes = codec.secret_bytes(sim->snapshot());
      if (!bytes.ok()) return bytes.status().WithContext(where + ": codec " + codec.name);
      points.push_back({s.components, n, codec.name, *bytes});
    }
  }
  return points;
}

Result<FitResult> LargestFitting(const PackageShape& shape, const Codec& codec,
                                 const FitOptions& opts) {
  ZS_RETURN_IF_ERROR(ValidateShape(shape));
  int cycles = opts.cycles;
  if (cycles <= 0) {
    const int fill = CyclesToFillEvents(shape.max_events);
    cycles = (fill + kSchedulePeriod - 1) / kSchedulePeriod * kSchedulePeriod;
  }
  const int cap = std::max(1, opts.max_images / shape.components);
  const double limit = static_cast<double>(kSecretSizeLimit);

  FitResult fit;
  fit.components = shape.components;
  auto measure = [&](int n) -> Result<std::size_t> {
    PackageShape s = shape;
    s.images_per_component = n;
    ++fit.probes;
    auto bytes = SizeAfter(s, cycles, codec);
    if (!bytes.ok()) return bytes.status().WithContext("codec " + codec.name);
    return bytes;
  };

  // Invariant once found: fits(lo) with size s_lo; !fits(hi) with size s_hi.
  int lo = 1;
  ZS_ASSIGN_OR_RETURN(std::size_t s_lo, measure(1));
  if (s_lo > kSecretSizeLimit) {
    fit.next_bytes = s_lo;
    return fit;
  }
  // Bracket: extrapolate the line through the last two fitting sizes (aiming
  // a little past the limit), growing at most 16-fold per step.
  int prev = 0;
  double s_prev = 0;
  int hi = 0;
  std::size_t s_hi = 0;
  while (hi == 0) {
    if (lo >= cap) {
      fit.images_per_component = lo;
      fit.bytes = s_lo;
      fit.capped = true;
      return fit;
    }
    double per_image = prev == 0 ? static_cast<double>(s_lo) / lo
                                 : (static_cast<double>(s_lo) - s_prev) / (lo - prev);
    double guess = per_image > 0 ? lo + (limit * 1.02 - static_cast<double>(s_lo)) / per_image
                                 : 2.0 * lo;
    guess = std::clamp(guess, lo + 1.0, 16.0 * lo);
    const int n = static_cast<int>(std::min<double>(std::ceil(guess), cap));
    ZS_ASSIGN_OR_RETURN(std::size_t s, measure(n));
    if (s <= kSecretSizeLimit) {
      prev = lo;
      s_prev = static_cast<double>(s_lo);
      lo = n;
      s_lo = s;
    } else {
      hi = n;
      s_hi = s;
    }
  }
  // Narrow: interpolate, probing the guess and its neighbour on the far side
  // so a good guess closes the bracket at once; bisect when a round did not
  // halve the bracket.
  bool bisect = false;
  while (hi - lo > 1) {
    const int width = hi - lo;
    int g;
    if (bisect) {
      g = lo + width / 2;
    } else {
      const double t = (limit - static_cast<double>(s_lo)) /
                       (static_cast<double>(s_hi) - static_cast<double>(s_lo));
      g = lo + static_cast<int>(std::lround(t * width));
    }
    g = std::clamp(g, lo + 1, hi - 1);
    ZS_ASSIGN_OR_RETURN(std::size_t s, measure(g));
    if (s <= kSecretSizeLimit) {
      lo = g;
      s_lo = s;
      if (g + 1 < hi) {
        ZS_ASSIGN_OR_RETURN(std::size_t s1, measure(g + 1));
        (s1 <= kSecretSizeLimit ? lo : hi) = g + 1;
        (s1 <= kSecretSizeLimit ? s_lo : s_hi) = s1;
      }
    } else {
      hi = g;
      s_hi = s;
      if (g - 1 > lo) {
        ZS_ASSIGN_OR_RETURN(std::size_t s1, measure(g - 1));
        (s1 <= kSecretSizeLimit ? lo : hi) = g - 1;
        (s1 <= kSecretSizeLimit ? s_lo : s_hi) = s1;
      }
    }
    bisect = !bisect && (hi - lo) * 2 > width;
  }
  fit.images_per_component = lo;
  fit.bytes = s_lo;
  fit.next_bytes = s_hi;
  return fit;
}

}  // namespace zs::tools
