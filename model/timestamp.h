// Timestamp: a point in time with nanosecond precision and the UTC offset it
// was written with, formatted the way Go's time.Time marshals to JSON
// (RFC 3339 with nanoseconds, trailing fractional zeros trimmed, "Z" for UTC).
//
// Thread safety: plain value type; the functions are reentrant.
#ifndef ZARF_STATE_MODEL_TIMESTAMP_H_
#define ZARF_STATE_MODEL_TIMESTAMP_H_

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace zs {

struct Timestamp {
  // Seconds since 1970-01-01T00:00:00Z. Go's zero time (year 1) is
  // kZeroSeconds.
  std::int64_t seconds = kZeroSeconds;
  // Nanoseconds within the second, [0, 1e9).
  std::int32_t nanos = 0;
  // Offset from UTC of the zone it was written in, in seconds; 0 prints "Z".
  // It does not take part in comparisons: equal instants are equal.
  std::int32_t offset_seconds = 0;

  static constexpr std::int64_t kZeroSeconds = -62135596800;  // 0001-01-01

  // The current time in UTC, with the system clock's precision.
  static Timestamp Now();
  static Timestamp FromUnixNanos(std::int64_t nanos);

  bool is_zero() const { return seconds == kZeroSeconds && nanos == 0; }
  // Nanoseconds since the Unix epoch (saturating outside ~1678..2262).
  std::int64_t unix_nanos() const;

  friend bool operator==(const Timestamp& a, const Timestamp& b) {
    return a.seconds == b.seconds && a.nanos == b.nanos;
  }
  friend std::strong_ordering operator<=>(const Timestamp& a, const Timestamp& b) {
    if (auto c = a.seconds <=> b.seconds; c != 0) return c;
    return a.nanos <=> b.nanos;
  }
};

// Parses RFC 3339 as Go's time.Time.UnmarshalJSON accepts it
// ("2024-05-01T10:20:30.5Z", "...+02:00"). Returns InvalidArgument naming the
// text on any other spelling.
Result<Timestamp> ParseRfc3339(std::string_view text);

// Formats as Go's time.RFC3339Nano layout. Years outside 0..9999 cannot be
// written by Go either; they are clamped here (callers validate at input).
std::string FormatRfc3339(const Timestamp& t);
// FormatRfc3339 appended to `out`.
void AppendRfc3339(std::string* out, const Timestamp& t);

// An age as kubectl's AGE column prints it (Kubernetes' HumanDuration), the
// one spelling of ages in every table, report and message: "45s" (under 2
// minutes), "7m5s" (under 10 minutes), "12m" (under 3 hours), "3h12m"
// (under 8 hours), "30h" (under 2 days), "5d4h" (under 8 days), "45d" (under
// 2 years), "2y30d" (under 8 years), "9y". A negative duration prints "0s"
// (a clock slightly behind).
std::string FormatAge(std::int64_t seconds);

// The age of `then` as of `now`: FormatAge of the whole seconds elapsed, the
// fractions compared too (10.9 to 11.1 is "0s").
std::string FormatAge(const Timestamp& then, const Timestamp& now);

}  // namespace zs

#endif  // ZARF_STATE_MODEL_TIMESTAMP_H_
