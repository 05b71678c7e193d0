// When a command measures the compact size of a package Secret. The compact
// writer runs zstd at level 19, some milliseconds a package (minutes for a
// List of 100,000), so `size` and `report` measure it only where the codec
// can decide whether the Secret fits, by this one rule.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_KUBE_COMPACT_FIGURE_H_
#define ZARF_STATE_KUBE_COMPACT_FIGURE_H_

#include <cstddef>
#include <string_view>

namespace zs {

// Whether to measure the compact size of the package stored as
// `stored_payload` (the Secret's data value) whose JSON is `json_bytes` long:
// always when `every_secret` is asked for (`size --compact`); otherwise only
// for a Secret stored compact (compact::LooksCompact) or whose JSON is at or
// past kSecretWarnBytes (90% of the limit, kube/package_secret.h).
bool CompactFigureWanted(std::string_view stored_payload, std::size_t json_bytes,
                         bool every_secret);

// The rule in words, for the note beside a compact figure left out.
inline constexpr std::string_view kCompactFigureRule =
    "measured for Secrets stored compact or over 90% of the limit as JSON";

}  // namespace zs

#endif  // ZARF_STATE_KUBE_COMPACT_FIGURE_H_
