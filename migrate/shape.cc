#include "migrate/shape.h"

#include <array>
#include <charconv>
#include <tuple>

namespace zs::migrate {
namespace {

using P = PackageShape;
using S = StateShape;

// tests/data/legacy/INDEX.md, one row per era.
constexpr std::array<Era, 22> kEras = {{
    {"e01", "v0.15.0", "v0.16.2", std::nullopt, S::kS1},
    {"e02", "v0.17.0", "v0.18.3", std::nullopt, S::kS2},
    {"e03", "v0.19.0", "v0.21.3", std::nullopt, S::kS3},
    {"e04", "v0.22.0", "v0.25.2", P::kP1, S::kS4},
    {"e05", "v0.26.0", "v0.26.2", P::kP1, S::kS5},
    {"e06", "v0.26.3", "v0.29.2", P::kP2, S::kS5},
    {"e07", "v0.30.0", "v0.35.0", P::kP3, S::kS5},
    {"e08", "v0.36.0", "v0.37.0", P::kP3, S::kS6},
    {"e09", "v0.38.0", "v0.38.3", P::kP3, S::kS7},
    {"e10", "v0.39.0", "v0.41.0", P::kP4, S::kS7},
    {"e11", "v0.42.0", "v0.49.1", P::kP5, S::kS7},
    {"e12", "v0.50.0", "v0.55.6", P::kP6, S::kS7},
    {"e13", "v0.56.0", "v0.56.0", P::kP6, S::kS8},
    {"e14", "v0.57.0", "v0.62.0", P::kP7, S::kS8},
    {"e15", "v0.63.0", "v0.64.0", P::kP8, S::kS8},
    {"e16", "v0.65.0", "v0.70.1", P::kP8, S::kS9},
    {"e17", "v0.71.0", "v0.73.1", P::kP8, S::kS10},
    {"e18", "v0.74.0", "v0.74.0", P::kP8, S::kS11},
    {"e19", "v0.74.1", "v0.74.2", P::kP8, S::kS12},
    {"e20", "v0.75.0", "v0.77.0", P::kP9, S::kS13},
    {"e21", "v0.78.0", "v0.79.0", P::kP9, S::kS14},
    {"e22", "v0.80.0", "v0.84.0", P::kP10, S::kS14},
}};

using Version = std::tuple<int, int, int>;

// "v1.2.3" or "1.2.3", with any "-rc1"/"+meta" suffix ignored.
std::optional<Version> ParseVersion(std::string_view tag) {
  if (!tag.empty() && tag.front() == 'v') tag.remove_prefix(1);
  int parts[3] = {0, 0, 0};
  const char* p = tag.data();
  const char* end = tag.data() + tag.size();
  for (int i = 0; i < 3; ++i) {
    auto [next, ec] = std::from_chars(p, end, parts[i]);
    if (ec != std::errc() || next == p) return std::nullopt;
    p = next;
    if (i < 2) {
      if (p == end || *p != '.') return std::nullopt;
      ++p;
    }
  }
  if (p != end && *p != '-' && *p != '+') return std::nullopt;
  return Version{parts[0], parts[1], parts[2]};
}

// "first..last" over the eras `match` accepts.
template <typename Match>
std::string Range(Match match) {
  std::string_view first, last;
  for (const Era& era : kEras) {
    if (!match(era)) continue;
    if (first.empty()) first = era.first_tag;
    last = era.last_tag;
  }
  if (first.empty()) return "";
  return std::string(first) + ".." + std::string(last);
}

}  // namespace

std::string_view ShapeName(PackageShape shape) {
  static constexpr std::string_view kNames[] = {"",   "P1", "P2", "P3", "P4", "P5",
                                                "P6", "P7", "P8", "P9", "P10", "v2"};
  return kNames[static_cast<int>(shape)];
}

std::string_view ShapeName(StateShape shape) {
  static constexpr std::string_view kNames[] = {"",   "S1",  "S2",  "S3",  "S4",
                                                "S5", "S6",  "S7",  "S8",  "S9",
                                                "S10", "S11", "S12", "S13", "S14"};
  return kNames[static_cast<int>(shape)];
}

const Era* EraOfTag(std::string_view tag) {
  const std::optional<Version> v = ParseVersion(tag);
  if (!v) return nullptr;
  for (const Era& era : kEras) {
    const Version first = *ParseVersion(era.first_tag);
    Version last = *ParseVersion(era.last_tag);
    // An era covers every patch release of its last minor line that the
    // INDEX lists; later patches of the newest line (v0.84.x) still belong.
    if (&era == &kEras.back()) std::get<2>(last) = 1 << 30;
    if (*v >= first && *v <= last) return &era;
  }
  return nullptr;
}

std::string TagRange(PackageShape shape) {
  if (shape == PackageShape::kV2) return "ZEP-0026";
  return Range([shape](const Era& e) { return e.package == shape; });
}

std::string TagRange(StateShape shape) {
  return Range([shape](const Era& e) { return e.state == shape; });
}

Result<Target> ParseTarget(std::string_view spelled) {
  Target t;
  t.spelled = std::string(spelled);
  if (spelled == "v2" || spelled == "legacy") {
    t.package = spelled == "v2" ? kNewestPackageShape : kNewestLegacyPackageShape;
    t.state = kNewestStateShape;
    return t;
  }
  for (int i = 1; i <= static_cast<int>(PackageShape::kP10); ++i) {
    if (spelled == ShapeName(static_cast<PackageShape>(i))) {
      t.package = static_cast<PackageShape>(i);
      t.state_note = "--to " + t.spelled + " names a package shape; state left as it is";
      return t;
    }
  }
  for (int i = 1; i <= static_cast<int>(StateShape::kS14); ++i) {
    if (spelled == ShapeName(static_cast<StateShape>(i))) {
      t.state = static_cast<StateShape>(i);
      t.package_note = "--to " + t.spelled + " names a state shape; package left as it is";
      return t;
    }
  }
  if (const Era* era = EraOfTag(spelled)) {
    t.package = era->package;
    t.state = era->state;
    if (!era->package) {
      t.package_note = "Zarf " + t.spelled + " kept no package Secrets (they start at v0.22.0); "
                       "package left as it is";
    }
    return t;
  }
  return Status::InvalidArgument(
      "--to '" + t.spelled +
      "': expected v2, legacy, a package shape P1..P10, a state shape S1..S14, or a Zarf "
      "release tag from v0.15.0 to v0.84.x");
}

}  // namespace zs::migrate
