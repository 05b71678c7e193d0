// GoPathMatch (engine/zarf_selection.h): Go's path.Match, written from its
// documented behaviour: a pattern is a run of chunks, each an optional
// leading run of '*' and a literal part; a failed match still reads the
// rest of the pattern so that a syntax error anywhere is reported.
#include "engine/zarf_selection.h"

namespace zs::engine {
namespace {

constexpr char32_t kRuneError = 0xFFFD;

Status BadPattern() { return Status::InvalidArgument("syntax error in pattern"); }

// utf8.DecodeRuneInString: the first rune of `s` and its width; an invalid
// or truncated sequence is kRuneError of width 1. `s` must not be empty.
char32_t DecodeRune(std::string_view s, std::size_t* width) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  *width = 1;
  if (b0 < 0x80) return b0;
  std::size_t n = 0;
  char32_t r = 0;
  char32_t min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2, r = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3, r = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4, r = b0 & 0x07, min = 0x10000;
  } else {
    return kRuneError;
  }
  if (s.size() < n) return kRuneError;
  for (std::size_t i = 1; i < n; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return kRuneError;
    r = (r << 6) | (b & 0x3F);
  }
  if (r < min || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) return kRuneError;
  *width = n;
  return r;
}

// One end of a class range; advances `chunk`. Errors on '-', ']', an
// escape or a rune at the end of the chunk, or invalid UTF-8.
Result<char32_t> ClassRune(std::string_view* chunk) {
  if (chunk->empty() || (*chunk)[0] == '-' || (*chunk)[0] == ']') return BadPattern();
  if ((*chunk)[0] == '\\') {
    chunk->remove_prefix(1);
    if (chunk->empty()) return BadPattern();
  }
  std::size_t n = 0;
  const char32_t r = DecodeRune(*chunk, &n);
  if (r == kRuneError && n == 1) return BadPattern();
  chunk->remove_prefix(n);
  if (chunk->empty()) return BadPattern();
  return r;
}

// Splits the next chunk off `pattern`: whether it starts with '*', and its
// literal part (up to the next '*' outside a class).
std::string_view ScanChunk(std::string_view* pattern, bool* star) {
  *star = false;
  while (!pattern->empty() && (*pattern)[0] == '*') {
    pattern->remove_prefix(1);
    *star = true;
  }
  bool in_range = false;
  std::size_t i = 0;
  for (; i < pattern->size(); ++i) {
    const char c = (*pattern)[i];
    if (c == '\\') {
      if (i + 1 < pattern->size()) ++i;
    } else if (c == '[') {
      in_range = true;
    } else if (c == ']') {
      in_range = false;
    } else if (c == '*' && !in_range) {
      break;
    }
  }
  const std::string_view chunk = pattern->substr(0, i);
  pattern->remove_prefix(i);
  return chunk;
}

// Matches `chunk` at the start of `s`. On a match sets *rest to what is left
// of `s` and returns true; false when it does not match. The whole chunk is
// read either way, so a syntax error is always an error.
Result<bool> MatchChunk(std::string_view chunk, std::string_view s, std::string_view* rest) {
  bool failed = false;
  while (!chunk.empty()) {
    if (!failed && s.empty()) failed = true;
    const char c = chunk[0];
    if (c == '[') {
      char32_t r = 0;
      if (!failed) {
        std::size_t n = 0;
        r = DecodeRune(s, &n);
        s.remove_prefix(n);
      }
      chunk.remove_prefix(1);
      bool negated = false;
      if (!chunk.empty() && chunk[0] == '^') {
        negated = true;
        chunk.remove_prefix(1);
      }
      bool match = false;
      int ranges = 0;
      while (true) {
        if (!chunk.empty() && chunk[0] == ']' && ranges > 0) {
          chunk.remove_prefix(1);
          break;
        }
        ZS_ASSIGN_OR_RETURN(char32_t lo, ClassRune(&chunk));
        char32_t hi = lo;
        if (chunk[0] == '-') {
          chunk.remove_prefix(1);
          ZS_ASSIGN_OR_RETURN(hi, ClassRune(&chunk));
        }
        if (lo <= r && r <= hi) match = true;
        ++ranges;
      }
      if (match == negated) failed = true;
    } else if (c == '?') {
      if (!failed) {
        if (s[0] == '/') failed = true;
        std::size_t n = 0;
        DecodeRune(s, &n);
        s.remove_prefix(n);
      }
      chunk.remove_prefix(1);
    } else {
      if (c == '\\') {
        chunk.remove_prefix(1);
        if (chunk.empty()) return BadPattern();
      }
      if (!failed) {
        if (chunk[0] != s[0]) failed = true;
        s.remove_prefix(1);
      }
      chunk.remove_prefix(1);
    }
  }
  if (failed) return false;
  *rest = s;
  return true;
}

}  // namespace

Result<bool> GoPathMatch(std::string_view pattern, std::string_view name) {
  while (!pattern.empty()) {
    bool star = false;
    const std::string_view chunk = ScanChunk(&pattern, &star);
    if (star && chunk.empty()) return name.find('/') == std::string_view::npos;
    std::string_view rest;
    ZS_ASSIGN_OR_RETURN(bool ok, MatchChunk(chunk, name, &rest));
    // The last chunk must use up the name, or a star may still match.
    if (ok && (rest.empty() || !pattern.empty())) {
      name = rest;
      continue;
    }
    bool advanced = false;
    if (star) {
      for (std::size_t i = 0; i < name.size() && name[i] != '/'; ++i) {
        ZS_ASSIGN_OR_RETURN(ok, MatchChunk(chunk, name.substr(i + 1), &rest));
        if (!ok) continue;
        if (pattern.empty() && !rest.empty()) continue;
        name = rest;
        advanced = true;
        break;
      }
    }
    if (advanced) continue;
    // No match: the rest of the pattern must still be well formed.
    while (!pattern.empty()) {
      const std::string_view next = ScanChunk(&pattern, &star);
      ZS_ASSIGN_OR_RETURN(ok, MatchChunk(next, "", &rest));
    }
    return false;
  }
  return name.empty();
}

}  // namespace zs::engine
