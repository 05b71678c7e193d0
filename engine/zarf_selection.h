// Which components Zarf v0.84.0 deploys and removes: its component filters
// (src/pkg/packager/filters/), with the same inputs, order and error words.
//
//  * A `--components` string is split on ',', each entry trimmed and
//    lower-cased (component names are not: an upper-case name is reached by
//    a glob only); it is a request only when its first entry is non-empty.
//    Entries are path.Match globs (GoPathMatch); a leading '-' excludes, and
//    exclusions are tried before inclusions.
//  * Components whose `only.localOS` names another system are dropped first
//    (filters.ByLocalOS).
//  * SelectForDeploy is filters.ForDeploy non-interactive (`--confirm`):
//    required components always, groups (by `group`, else by name) at the
//    position of their first member, one member per group, a group's first
//    `default: true` member when nothing in it is asked for; every request
//    entry must match some component.
//  * SelectForRemove is filters.BySelectState: only filtering, no error for
//    an unknown name.
// Errors are InvalidArgument whose message is the text the deploy or remove
// command prints ("error applying filter *filters.deploymentFilter: no
// compatible components found: nope, suggestions (base, debug)").
//
// Differences kept on purpose: lower-casing and trimming cover ASCII only
// (Go's cover Unicode); Zarf's component names are ASCII by its schema.
//
// Thread safety: pure functions, reentrant.
#ifndef ZARF_STATE_ENGINE_ZARF_SELECTION_H_
#define ZARF_STATE_ENGINE_ZARF_SELECTION_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"

namespace zs::engine {

// The system zarf-state stands in for when a filter asks Zarf's runtime.GOOS.
inline constexpr std::string_view kLocalOS = "linux";

// Go's path.Match: `*` (any run of non-'/'), `?` (one non-'/' character),
// `[...]`/`[^...]` classes with ranges, `\` escapes. InvalidArgument "syntax
// error in pattern" for a malformed pattern, also when the name fails to
// match before the bad part is reached.
Result<bool> GoPathMatch(std::string_view pattern, std::string_view name);

// helpers.StringToSlice: "" gives no entry; otherwise every ','-separated
// entry, trimmed of white space and lower-cased (empty entries kept).
std::vector<std::string> SplitRequestedComponents(std::string_view requested);

// Which of Zarf's errors a failed selection is.
enum class SelectionError {
  kNone,
  kNotFound,              // "no compatible components found"
  kMultipleSameGroup,     // "cannot specify multiple components from the same group"
  kNoDefaultOrSelection,  // "no default or selected component found"
  kBadPattern,            // "syntax error in pattern"
};

// The indexes into `package`'s `components` of what `zarf package deploy
// --confirm --components <requested>` deploys, in definition order. On
// failure returns InvalidArgument with Zarf's wrapped message and, when
// `kind` is not null, sets *kind. `local_os` is the system Zarf runs on.
Result<std::vector<std::size_t>> SelectForDeploy(const json::Value& package,
                                                 std::string_view requested,
                                                 SelectionError* kind = nullptr,
                                                 std::string_view local_os = kLocalOS);

// The indexes of the components `zarf package remove --components
// <requested>` keeps from `package` (a definition; its local-OS filter
// applied first). InvalidArgument "error applying filter
// *filters.selectStateFilter: syntax error in pattern" for a bad glob.
Result<std::vector<std::size_t>> SelectForRemove(const json::Value& package,
                                                 std::string_view requested,
                                                 std::string_view local_os = kLocalOS);

// `package` with only the components at `indexes`, in that order (Zarf's
// RetainComponents: what it stores as `data`). Other members are kept.
json::Value RetainComponents(const json::Value& package, const std::vector<std::size_t>& indexes);

// ZarfComponent.RequiresCluster: the component has images, image archives,
// charts, manifests, repos, data injections or health checks.
bool RequiresCluster(const json::Value& component);

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_ZARF_SELECTION_H_
