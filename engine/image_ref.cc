#include "engine/image_ref.h"

#include <zlib.h>

#include <array>

namespace zs::engine {
namespace {

constexpr std::string_view kDefaultDomain = "docker.io";
constexpr std::string_view kLegacyDefaultDomain = "index.docker.io";
constexpr std::string_view kOfficialRepoPrefix = "library/";
constexpr std::string_view kDefaultTag = "latest";
constexpr std::size_t kMaxNameLength = 255;
constexpr std::size_t kMaxTagLength = 128;

// Character classes, one table lookup each (a reference is checked byte by
// byte several times; a chain of comparisons per byte was most of it).
enum CharClass : unsigned char {
  kLowerAlnum = 1,   // a-z 0-9
  kUpper = 2,        // A-Z
  kUnderscore = 4,   // _
  kDotDash = 8,      // . -
  kHostOnly = 16,    // : [ ]
  kCut = 32,         // what the first pass stops at: @ / : and whitespace/controls
  kBad = 64,         // whitespace and control characters
};

constexpr std::array<unsigned char, 256> MakeClasses() {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    unsigned char k = 0;
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) k |= kLowerAlnum;
    if (c >= 'A' && c <= 'Z') k |= kUpper;
    if (c == '_') k |= kUnderscore;
    if (c == '.' || c == '-') k |= kDotDash;
    if (c == ':' || c == '[' || c == ']') k |= kHostOnly;
    if (c <= ' ' || c == 0x7f) k |= kBad | kCut;
    if (c == '@' || c == '/' || c == ':') k |= kCut;
    t[c] = k;
  }
  return t;
}
constexpr std::array<unsigned char, 256> kClasses = MakeClasses();

unsigned char ClassOf(char c) { return kClasses[static_cast<unsigned char>(c)]; }
bool IsLowerAlnum(char c) { return (ClassOf(c) & kLowerAlnum) != 0; }
bool IsUpper(char c) { return (ClassOf(c) & kUpper) != 0; }
bool IsWordChar(char c) { return (ClassOf(c) & (kLowerAlnum | kUpper | kUnderscore)) != 0; }
bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

Status Invalid(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("image reference \"" + std::string(text) +
                                 "\": " + std::string(why));
}

// One path component: alphanumerics joined by '.', '_', "__" or runs of '-'.
bool ValidPathComponent(std::string_view c) {
  if (c.empty() || !IsLowerAlnum(c.front()) || !IsLowerAlnum(c.back()))
    return false;
  for (std::size_t i = 0; i < c.size();) {
    if (IsLowerAlnum(c[i])) {
      ++i;
      continue;
    }
    const char sep = c[i];
    std::size_t run = 0;
    while (i < c.size() && c[i] == sep) ++i, ++run;
    if (sep == '.' && run != 1) return false;
    if (sep == '_' && run > 2) return false;
    if (sep != '.' && sep != '_' && sep != '-') return false;
    if (i < c.size() && !IsLowerAlnum(c[i])) return false;  // mixed separators
  }
  return true;
}

bool ValidDomain(std::string_view d) {
  if (d.empty()) return false;
  for (char c : d) {
    if ((ClassOf(c) & (kLowerAlnum | kUpper | kDotDash | kHostOnly)) == 0) return false;
  }
  return true;
}

bool ValidTag(std::string_view t) {
  if (t.empty() || t.size() > kMaxTagLength || !IsWordChar(t.front()))
    return false;
  for (char c : t) {
    if ((ClassOf(c) & (kLowerAlnum | kUpper | kUnderscore | kDotDash)) == 0) return false;
  }
  return true;
}

// "<algorithm>:<encoded>"; the algorithm is lowercase alphanumerics joined by
// '+', '.', '_' or '-'; sha256 needs 64 lowercase hex digits, others at
// least 32 hex digits.
bool ValidDigest(std::string_view d) {
  const std::size_t colon = d.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view algo = d.substr(0, colon);
  const std::string_view hex = d.substr(colon + 1);
  if (!IsLowerAlnum(algo.front()) || !IsLowerAlnum(algo.back())) return false;
  for (char c : algo) {
    if (!IsLowerAlnum(c) && c != '+' && c != '.' && c != '_' && c != '-')
      return false;
  }
  for (char c : hex) {
    if (!IsHex(c)) return false;
  }
  if (algo == "sha256") {
    if (hex.size() != 64) return false;
    for (char c : hex) {
      if (IsUpper(c)) return false;
    }
    return true;
  }
  return hex.size() >= 32;
}

}  // namespace

ImageRefView ImageRef::view() const { return {domain, {}, path, tag, digest}; }

std::string ImageRef::Name() const {
  std::string out;
  AppendImageName(&out, view());
  return out;
}

void AppendImageName(std::string* out, const ImageRefView& ref) {
  out->reserve(out->size() + ref.domain.size() + 1 + ref.path_prefix.size() +
               ref.path_rest.size());
  out->append(ref.domain).push_back('/');
  out->append(ref.path_prefix).append(ref.path_rest);
}

std::string ImageRef::String() const {
  std::string out = Name();
  if (!tag.empty()) out.append(":").append(tag);
  if (!digest.empty()) out.append("@").append(digest);
  return out;
}

void AppendImageKey(std::string* out, const ImageRefView& ref) {
  // One allocation for the whole key (AppendImageName alone would reserve
  // for the name, and the tag or digest would grow it again).
  out->reserve(out->size() + ref.domain.size() + 1 + ref.path_prefix.size() +
               ref.path_rest.size() + 1 +
               (ref.digest.empty() ? ref.tag.size() : ref.digest.size()));
  AppendImageName(out, ref);
  if (!ref.digest.empty()) {
    out->push_back('@');
    out->append(ref.digest);
  } else {
    out->push_back(':');
    out->append(ref.tag);
  }
}

std::string ImageRef::Key() const {
  std::string out;
  AppendImageKey(&out, view());
  return out;
}

namespace {

// Validates `path`, the part of reference `text` after its domain, component
// by component; `*one_component` says whether it has a single one.
Status CheckPath(std::string_view text, std::string_view path, bool* one_component) {
  constexpr std::size_t npos = std::string_view::npos;
  for (std::size_t start = 0;;) {
    const std::size_t end = path.find('/', start);
    const std::string_view comp =
        path.substr(start, end == npos ? npos : end - start);
    if (!ValidPathComponent(comp)) {
      for (char c : comp) {
        if (IsUpper(c))
          return Invalid(text, "repository name must be lowercase");
      }
      return Invalid(text,
                     "invalid path component \"" + std::string(comp) + "\"");
    }
    if (end == npos) break;
    *one_component = false;
    start = end + 1;
  }
  return Status::OK();
}

}  // namespace

Status ParseImageRef(std::string_view text, ImageRefView* out) {
  if (text.empty()) return Invalid(text, "empty");
  constexpr std::size_t npos = std::string_view::npos;
  // One pass finds what the rules below cut at: the first '@' and, before
  // it, the first and last '/' and the last ':'.
  std::size_t at = npos, first_slash = npos, last_slash = npos, last_colon = npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const unsigned char k = ClassOf(c);
    if ((k & kCut) == 0) continue;
    if ((k & kBad) != 0)
      return Invalid(text, "contains whitespace or a control character");
    if (at != npos) continue;
    if (c == '@') {
      at = i;
    } else if (c == '/') {
      if (first_slash == npos) first_slash = i;
      last_slash = i;
    } else if (c == ':') {
      last_colon = i;
    }
  }
  ImageRefView& ref = *out;
  ref = ImageRefView{};
  std::string_view rest = text;
  if (at != npos) {
    const std::string_view digest = rest.substr(at + 1);
    if (!ValidDigest(digest))
      return Invalid(text, "malformed digest \"" + std::string(digest) + "\"");
    ref.digest = digest;
    rest = rest.substr(0, at);
  }
  if (last_colon != npos && (last_slash == npos || last_colon > last_slash)) {
    const std::string_view tag = rest.substr(last_colon + 1);
    if (!ValidTag(tag))
      return Invalid(text, "invalid tag \"" + std::string(tag) + "\"");
    ref.tag = tag;
    rest = rest.substr(0, last_colon);
  }
  if (rest.empty()) return Invalid(text, "empty name");
  if (rest.size() > kMaxNameLength)
    return Invalid(text, "name longer than 255 characters");

  std::string_view path = rest;
  if (first_slash != npos) {
    const std::string_view first = rest.substr(0, first_slash);
    bool host = first == "localhost";
    for (std::size_t i = 0; i < first.size() && !host; ++i) {
      host = first[i] == '.' || first[i] == ':' || IsUpper(first[i]);
    }
    if (host) {
      if (!ValidDomain(first))
        return Invalid(text,
                       "invalid registry host \"" + std::string(first) + "\"");
      ref.domain = first;
      path = rest.substr(first_slash + 1);
    }
  }
  if (ref.domain.empty() || ref.domain == kLegacyDefaultDomain)
    ref.domain = kDefaultDomain;

  bool one_component = true;
  ZS_RETURN_IF_ERROR(CheckPath(text, path, &one_component));
  if (ref.domain == kDefaultDomain && one_component)
    ref.path_prefix = kOfficialRepoPrefix;
  ref.path_rest = path;
  if (ref.tag.empty() && ref.digest.empty()) ref.tag = kDefaultTag;
  return Status::OK();
}

Result<ImageRef> ParseImageRef(std::string_view text) {
  ImageRefView view;
  ZS_RETURN_IF_ERROR(ParseImageRef(text, &view));
  ImageRef ref;
  ref.domain.assign(view.domain);
  ref.path.reserve(view.path_prefix.size() + view.path_rest.size());
  ref.path.append(view.path_prefix).append(view.path_rest);
  ref.tag.assign(view.tag);
  ref.digest.assign(view.digest);
  return ref;
}

std::uint32_t ZarfCrc(const ImageRef& ref) {
  const std::string name = ref.Name();
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(name.data()),
              static_cast<uInt>(name.size()));
  return static_cast<std::uint32_t>(crc);
}

std::string ZarfCrcTag(const ImageRef& ref) {
  if (!ref.digest.empty()) return "";
  return ref.tag + "-zarf-" + std::to_string(ZarfCrc(ref));
}

std::vector<std::string> PushedReferences(const ImageRef& ref,
                                          std::string_view registry) {
  std::string base;
  if (!registry.empty()) base.append(registry).push_back('/');
  base.append(ref.path);
  if (!ref.digest.empty()) return {base + "@" + ref.digest};
  return {base + ":" + ref.tag, base + ":" + ZarfCrcTag(ref)};
}

}  // namespace zs::engine
