// Shape detection: the newest shape whose key layout a payload fits
// (migrate/FORMATS.md section 3 explains the evidence and the ambiguities).
#include <string>

#include "model/model_json.h"
#include "migrate/format.h"
#include "migrate/internal/migrators.h"
#include "migrate/internal/schema.h"
#include "migrate/internal/reshape.h"
#include "migrate/migrate.h"

namespace zs::migrate {
namespace {

using internal::Fits;

// Fills candidates (newest first), shape and the bracketing evidence: why the
// next newer shape does not fit and why the next older non-candidate does
// not. `schema(i)` is shape i's table, `name(i)` its name, for i in [1, n].
template <typename SchemaOf, typename NameOf>
void DetectByKeys(const json::Value& payload, int n, SchemaOf schema, NameOf name,
                  std::string_view why_ambiguous, Detection* d) {
  std::vector<std::string> reasons(n + 1);
  std::vector<bool> fits(n + 1, false);
  for (int i = n; i >= 1; --i) {
    fits[i] = Fits(payload, schema(i), "", &reasons[i]);
    if (fits[i]) d->candidates.emplace_back(name(i));
  }
  if (d->candidates.empty()) {
    d->shape = std::string(name(n));
    d->evidence.push_back("fits no released shape (" + std::string(name(n)) + ": " +
                          reasons[n] + ")");
    d->warnings.push_back("keys of several eras mixed (" + reasons[n] +
                          "); treated as " + d->shape + " and every value kept");
    return;
  }
  d->shape = d->candidates.front();
  int newest = 0, oldest = 0;
  for (int i = n; i >= 1; --i) {
    if (!fits[i]) continue;
    if (newest == 0) newest = i;
    oldest = i;
  }
  if (newest < n) {
    d->evidence.push_back("not " + std::string(name(newest + 1)) + ": " + reasons[newest + 1]);
  }
  for (int i = oldest - 1; i >= 1; --i) {
    if (fits[i]) continue;
    d->evidence.push_back("not " + std::string(name(i)) + ": " + reasons[i]);
    break;
  }
  if (d->ambiguous()) {
    std::string group;
    for (const std::string& c : d->candidates) group += (group.empty() ? "" : "|") + c;
    d->warnings.push_back("ambiguous: the keys fit " + group + " (" +
                          std::string(why_ambiguous) + "); taken as the newest, " + d->shape +
                          "; the migration is the same for each");
  }
}

}  // namespace

namespace internal {

void DetectPackage(const json::Value& payload, const DeployedPackage& pkg, Detection* d) {
  std::string why;
  if (DetectPackageFormat(pkg, &why) == kFormatV2) {
    d->shape = std::string(ShapeName(PackageShape::kV2));
    d->candidates = {d->shape};
    d->evidence.push_back(why);
    return;
  }
  constexpr int kLegacy = static_cast<int>(PackageShape::kP10);
  DetectByKeys(
      payload, kLegacy,
      [](int i) -> const internal::Schema& {
        return internal::PackageSchema(static_cast<PackageShape>(i));
      },
      [](int i) { return ShapeName(static_cast<PackageShape>(i)); },
      "the keys that tell them apart are omitted when empty", d);
  // cliVersion is the tag that wrote the payload in every released Zarf: a
  // hint inside an ambiguous group, and worth a warning when it disagrees.
  const Era* era = EraOfTag(pkg.cli_version);
  if (era == nullptr || !era->package) return;
  const std::string_view by_version = ShapeName(*era->package);
  bool among = false;
  for (const std::string& c : d->candidates) among = among || c == by_version;
  if (!among) {
    d->warnings.push_back("cliVersion " + pkg.cli_version + " wrote " + std::string(by_version) +
                          ", but the keys say " + d->shape + "; going by the keys");
  } else if (d->ambiguous()) {
    d->evidence.push_back("cliVersion " + pkg.cli_version + " points to " +
                          std::string(by_version));
  }
}

}  // namespace internal

Result<Detection> DetectShape(const json::Value& payload, PayloadKind kind) {
  Detection d;
  d.kind = kind;
  if (!payload.is_object()) {
    return Status::InvalidArgument("payload: expected a JSON object, got " +
                                   std::string(json::KindName(payload.kind())));
  }
  if (kind == PayloadKind::kPackage) {
    ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, DecodeDeployedPackage(payload));
    internal::DetectPackage(payload, pkg, &d);
    return d;
  }
  DetectByKeys(
      payload, static_cast<int>(StateShape::kS14),
      [](int i) -> const internal::Schema& {
        return internal::StateSchema(static_cast<StateShape>(i));
      },
      [](int i) { return ShapeName(static_cast<StateShape>(i)); },
      "Zarf changed only Go code between them, or the keys that tell them apart are "
      "omitted when empty",
      &d);
  return d;
}

namespace internal {

PackageShape PackageShapeOf(const Detection& d) {
  for (int i = 1; i <= static_cast<int>(PackageShape::kV2); ++i) {
    if (ShapeName(static_cast<PackageShape>(i)) == d.shape) return static_cast<PackageShape>(i);
  }
  return kNewestPackageShape;
}

StateShape StateShapeOf(const Detection& d) {
  for (int i = 1; i <= static_cast<int>(StateShape::kS14); ++i) {
    if (ShapeName(static_cast<StateShape>(i)) == d.shape) return static_cast<StateShape>(i);
  }
  return kNewestStateShape;
}

}  // namespace internal
}  // namespace zs::migrate
