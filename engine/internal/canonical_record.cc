#include "engine/internal/canonical_record.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace zs::engine::internal {
namespace {

// Reads the canonical subset of JSON: no whitespace, strings of printable
// ASCII without escapes. Anything else makes a read fail, and the caller
// declines the record.
class Cursor {
 public:
  explicit Cursor(std::string_view in) : p_(in.data()), end_(in.data() + in.size()) {}

  bool at_end() const { return p_ == end_; }

  // Consumes `s` if the input continues with it.
  bool Literal(std::string_view s) {
    if (static_cast<std::size_t>(end_ - p_) < s.size() ||
        std::memcmp(p_, s.data(), s.size()) != 0) {
      return false;
    }
    p_ += s.size();
    return true;
  }

  // A string token; `*out` views its contents in the input. Control
  // characters, backslashes and bytes >= 0x80 are left to the general
  // decoder (escapes, UTF-8 validation).
  bool String(std::string_view* out) {
    if (p_ == end_ || *p_ != '"') return false;
    const char* start = ++p_;
    for (; p_ != end_; ++p_) {
      const auto ch = static_cast<unsigned char>(*p_);
      if (ch == '"') {
        *out = std::string_view(start, static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (ch < 0x20 || ch > 0x7E || ch == '\\') return false;
    }
    return false;
  }

 private:
  const char* p_;
  const char* end_;
};

// The fields of PackageEvent and ComponentEvent in the order (and with the
// indexes) model/model_json.cc decodes and writes them.
constexpr std::array<std::string_view, 8> kPackageEventFields = {
    "type", "outcome", "timestamp", "version", "flavor", "digest", "source", "configDigest"};
constexpr std::array<std::string_view, 3> kComponentEventFields = {"type", "outcome",
                                                                   "timestamp"};

// Reads an object whose members are string-valued fields of `fields`, each
// at most once and in that order (so no duplicates), calling
// `set(index, value)` for each. Marks the others absent, as the general
// decoder does. Unknown names (even case variants Go would match) decline.
template <std::size_t N, typename Set>
bool ReadStringObject(Cursor* c, const std::array<std::string_view, N>& fields,
                      UnknownFields* unknown, Set set) {
  if (!c->Literal("{")) return false;
  std::uint64_t absent = (std::uint64_t{1} << N) - 1;
  if (!c->Literal("}")) {
    std::size_t next = 0;
    do {
      std::string_view name, value;
      if (!c->String(&name) || !c->Literal(":") || !c->String(&value)) return false;
      while (next < N && fields[next] != name) ++next;
      if (next == N) return false;
      absent &= ~(std::uint64_t{1} << next);
      if (!set(next, value)) return false;
      ++next;
    } while (c->Literal(","));
    if (!c->Literal("}")) return false;
  }
  unknown->absent = absent;
  return true;
}

bool SetTime(std::string_view text, Timestamp* out) {
  auto t = ParseRfc3339(text);
  if (!t.ok()) return false;  // the general decoder words the error
  *out = *t;
  return true;
}

bool ReadPackageEvent(Cursor* c, PackageEvent* e) {
  return ReadStringObject(c, kPackageEventFields, &e->unknown,
                          [e](std::size_t i, std::string_view v) {
                            switch (i) {
                              case 0: e->type = v; break;
                              case 1: e->outcome = v; break;
                              case 2: return SetTime(v, &e->timestamp);
                              case 3: e->version = v; break;
                              case 4: e->flavor = v; break;
                              case 5: e->digest = v; break;
                              case 6: e->source = v; break;
                              default: e->config_digest = v; break;
                            }
                            return true;
                          });
}

bool ReadComponentEvent(Cursor* c, ComponentEvent* e) {
  return ReadStringObject(c, kComponentEventFields, &e->unknown,
                          [e](std::size_t i, std::string_view v) {
                            switch (i) {
                              case 0: e->type = v; break;
                              case 1: e->outcome = v; break;
                              default: return SetTime(v, &e->timestamp);
                            }
                            return true;
                          });
}

}  // namespace

bool DecodeCanonicalRecord(std::string_view bytes, Record* out) {
  static_assert(kRecordFormatVersion == 1, "the canonical prefix below names the version");
  Cursor c(bytes);
  if (!c.Literal(R"({"v":1,"kind":")")) return false;
  if (c.Literal(R"(PackageEvent","event":)")) {
    out->kind = RecordKind::kPackageEvent;
    if (!ReadPackageEvent(&c, &out->event)) return false;
  } else if (c.Literal(R"(ComponentEvent","component":)")) {
    out->kind = RecordKind::kComponentEvent;
    std::string_view component;
    if (!c.String(&component) || !c.Literal(R"(,"event":)")) return false;
    out->component = component;
    if (!ReadComponentEvent(&c, &out->component_event)) return false;
  } else {
    return false;
  }
  return c.Literal("}") && c.at_end();
}

}  // namespace zs::engine::internal
