// `zarf package deploy --namespace X` as Zarf v0.84.0 applies it to the
// package definition before deploying (src/api/api.go:117-181): the
// definition Zarf deploys and stores as the Secret's `data`.
//
// Refusals, checked in this order, each with Zarf's words:
//  1. `metadata.allowNamespaceOverride: false`: "package explicitly prevents
//     namespace overrides";
//  2. kind ZarfInitConfig: "package kind is not a ZarfPackageConfig, cannot
//     override namespace";
//  3. more than one distinct namespace across every chart and manifest of
//     every component (an absent namespace counts as the value ""): "package
//     contains N unique namespaces, cannot override namespace".
// Otherwise the package's one namespace (or "" when it has no chart or
// manifest) is the original: every chart and manifest namespace equal to it,
// and every `actions.<onCreate|onDeploy|onRemove>.<before|after|onSuccess|
// onFailure>[].wait.cluster.namespace` equal to it, becomes the target. The
// target is not validated (Zarf does not).
//
// Thread safety: pure function, reentrant.
#ifndef ZARF_STATE_MODEL_NAMESPACE_OVERRIDE_H_
#define ZARF_STATE_MODEL_NAMESPACE_OVERRIDE_H_

#include <string_view>

#include "base/status.h"
#include "json/json_value.h"

namespace zs {

// Rewrites `definition` (a ZarfPackage as JSON) in place for the namespace
// override `target`. InvalidArgument with Zarf's refusal, and `definition`
// unchanged, when Zarf refuses. A namespace added where the input had none
// is appended to its object; MarshalZarfPackage (model/zarf_package.h) puts
// it in Zarf's field order.
Status OverrideNamespace(json::Value* definition, std::string_view target);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_NAMESPACE_OVERRIDE_H_
