#include "model/timestamp.h"

#include <chrono>
#include <cstdio>

namespace zs {
namespace {

// "<a><a_unit>", then "<b><b_unit>" unless b is 0: "3h12m", "3h".
std::string AgeParts(std::int64_t a, char a_unit, std::int64_t b = 0, char b_unit = 0) {
  std::string text = std::to_string(a) + a_unit;
  if (b != 0) text += std::to_string(b) + b_unit;
  return text;
}

// Days since 1970-01-01 of a proleptic Gregorian date.
std::int64_t DaysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void CivilFromDays(std::int64_t z, std::int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<std::int64_t>(yoe) + era * 400 + (*m <= 2);
}

bool IsLeap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned DaysInMonth(std::int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `n` digits at text[*pos].
bool Digits(std::string_view text, std::size_t* pos, int n, int* out) {
  if (*pos + n > text.size()) return false;
  int v = 0;
  for (int i = 0; i < n; ++i) {
    const char c = text[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

bool Expect(std::string_view text, std::size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

}  // namespace

Timestamp Timestamp::Now() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return FromUnixNanos(
      std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
}

Timestamp Timestamp::FromUnixNanos(std::int64_t nanos) {
  Timestamp t;
  t.seconds = nanos / 1000000000;
  std::int64_t rem = nanos % 1000000000;
  if (rem < 0) {
    rem += 1000000000;
    --t.seconds;
  }
  t.nanos = static_cast<std::int32_t>(rem);
  return t;
}

std::int64_t Timestamp::unix_nanos() const {
  constexpr std::int64_t kMaxSeconds = INT64_MAX / 1000000000 - 1;
  if (seconds > kMaxSeconds) return INT64_MAX;
  if (seconds < -kMaxSeconds) return INT64_MIN;
  return seconds * 1000000000 + nanos;
}

Result<Timestamp> ParseRfc3339(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument("invalid RFC 3339 timestamp \"" +
                                   std::string(text) + "\"");
  };
  std::size_t p = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!Digits(text, &p, 4, &year) || !Expect(text, &p, '-') ||
      !Digits(text, &p, 2, &month) || !Expect(text, &p, '-') ||
      !Digits(text, &p, 2, &day) || !Expect(text, &p, 'T') ||
      !Digits(text, &p, 2, &hour) || !Expect(text, &p, ':') ||
      !Digits(text, &p, 2, &minute) || !Expect(text, &p, ':') ||
      !Digits(text, &p, 2, &second)) {
    return bad();
  }
  if (month < 1 || month > 12 || day < 1 ||
      static_cast<unsigned>(day) > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return bad();
  }
  std::int32_t nanos = 0;
  if (p < text.size() && text[p] == '.') {
    ++p;
    int digits = 0;
    while (p < text.size() && text[p] >= '0' && text[p] <= '9') {
      if (digits < 9) nanos = nanos * 10 + (text[p] - '0');
      ++digits;
      ++p;
    }
    if (digits == 0) return bad();
    for (int i = digits; i < 9; ++i) nanos *= 10;
  }
  std::int32_t offset = 0;
  if (Expect(text, &p, 'Z')) {
    offset = 0;
  } else if (p < text.size() && (text[p] == '+' || text[p] == '-')) {
    const int sign = text[p] == '-' ? -1 : 1;
    ++p;
    int oh, om;
    if (!Digits(text, &p, 2, &oh) || !Expect(text, &p, ':') ||
        !Digits(text, &p, 2, &om) || oh > 23 || om > 59) {
      return bad();
    }
    offset = sign * (oh * 3600 + om * 60);
  } else {
    return bad();
  }
  if (p != text.size()) return bad();
  Timestamp t;
  t.seconds = DaysFromCivil(year, month, day) * 86400 + hour * 3600 +
              minute * 60 + second - offset;
  t.nanos = nanos;
  t.offset_seconds = offset;
  return t;
}

namespace {

// Writes `v` (0 <= v < 10^width) as exactly `width` decimal digits at `p`.
char* PutDigits(char* p, unsigned v, int width) {
  for (int i = width - 1; i >= 0; --i) {
    p[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return p + width;
}

}  // namespace

void AppendRfc3339(std::string* out, const Timestamp& t) {
  const std::int64_t local = t.seconds + t.offset_seconds;
  std::int64_t days = local / 86400;
  std::int64_t secs = local % 86400;
  if (secs < 0) {
    secs += 86400;
    --days;
  }
  std::int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  if (y < 0) y = 0;
  if (y > 9999) y = 9999;
  // "YYYY-MM-DDTHH:MM:SS" ".nnnnnnnnn" "+hh:mm": at most 35 bytes.
  char buf[40];
  char* p = PutDigits(buf, static_cast<unsigned>(y), 4);
  *p++ = '-';
  p = PutDigits(p, m, 2);
  *p++ = '-';
  p = PutDigits(p, d, 2);
  *p++ = 'T';
  p = PutDigits(p, static_cast<unsigned>(secs / 3600), 2);
  *p++ = ':';
  p = PutDigits(p, static_cast<unsigned>(secs / 60 % 60), 2);
  *p++ = ':';
  p = PutDigits(p, static_cast<unsigned>(secs % 60), 2);
  if (t.nanos != 0) {
    // Go's RFC3339Nano: nine digits with the trailing zeros trimmed.
    *p++ = '.';
    unsigned frac = static_cast<unsigned>(t.nanos);
    int width = 9;
    while (frac % 10 == 0) {
      frac /= 10;
      --width;
    }
    p = PutDigits(p, frac, width);
  }
  if (t.offset_seconds == 0) {
    *p++ = 'Z';
  } else {
    const int off = t.offset_seconds < 0 ? -t.offset_seconds : t.offset_seconds;
    *p++ = t.offset_seconds < 0 ? '-' : '+';
    p = PutDigits(p, static_cast<unsigned>(off / 3600 % 100), 2);
    *p++ = ':';
    p = PutDigits(p, static_cast<unsigned>(off / 60 % 60), 2);
  }
  out->append(buf, static_cast<std::size_t>(p - buf));
}

std::string FormatRfc3339(const Timestamp& t) {
  std::string out;
  AppendRfc3339(&out, t);
  return out;
}

std::string FormatAge(std::int64_t s) {
  if (s < 0) s = 0;
  const std::int64_t minutes = s / 60, hours = s / 3600, days = s / 86400;
  if (s < 120) return AgeParts(s, 's');
  if (minutes < 10) return AgeParts(minutes, 'm', s % 60, 's');
  if (minutes < 180) return AgeParts(minutes, 'm');
  if (hours < 8) return AgeParts(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return AgeParts(hours, 'h');
  if (hours < 24 * 8) return AgeParts(days, 'd', hours % 24, 'h');
  if (hours < 24 * 365 * 2) return AgeParts(days, 'd');
  if (hours < 24 * 365 * 8) return AgeParts(days / 365, 'y', days % 365, 'd');
  return AgeParts(days / 365, 'y');
}

std::string FormatAge(const Timestamp& then, const Timestamp& now) {
  std::int64_t s = now.seconds - then.seconds;
  if (now.nanos < then.nanos) --s;
  return FormatAge(s);
}

}  // namespace zs
