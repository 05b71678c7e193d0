// Container image references as Zarf names them in its registry.
//
// A package lists images as people write them ("nginx:1.25",
// "ghcr.io/x/y@sha256:..."). Zarf normalizes each one the way Docker does
// (github.com/distribution/reference, ParseNormalizedNamed) and pushes it to
// its registry under two tags: the plain tag and "<tag>-zarf-<crc32>", where
// the CRC-32 (IEEE) is taken over the normalized name only (domain/path, no
// tag or digest). A digest reference is pushed by digest alone, with no CRC
// tag. Prune planning (engine/prune.h) uses this to decide when two spellings
// are the same image and to list the registry references to delete.
//
// Normalization, as the reference library does it:
//  * the name is split at its first '/'; the first component is a registry
//    host when it contains '.' or ':', is "localhost", or has an uppercase
//    letter; otherwise the domain is "docker.io" and the whole name is the
//    path;
//  * the legacy host "index.docker.io" reads as "docker.io";
//  * on "docker.io" a single-component path gains "library/";
//  * with neither tag nor digest, the tag is "latest".
// So "nginx", "library/nginx", "docker.io/nginx" and
// "index.docker.io/library/nginx" all name "docker.io/library/nginx".
//
// Thread safety: plain value types and reentrant functions.
#ifndef ZARF_STATE_ENGINE_IMAGE_REF_H_
#define ZARF_STATE_ENGINE_IMAGE_REF_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace zs::engine {

struct ImageRefView;

// A parsed, normalized image reference.
struct ImageRef {
  std::string domain;  // "docker.io", "ghcr.io", "127.0.0.1:31999"
  std::string path;    // "library/nginx"; lowercase
  std::string tag;     // "1.25"; "latest" by default; "" for a bare digest
  std::string digest;  // "sha256:<64 hex>", or ""

  // The normalized name, "<domain>/<path>": what the Zarf CRC is taken of.
  std::string Name() const;
  // The full normalized reference: "<name>:<tag>", "<name>@<digest>" or
  // "<name>:<tag>@<digest>".
  std::string String() const;
  // What makes two references the same image for pruning: the normalized
  // name plus the digest when there is one (it names the content, and it is
  // the only reference Zarf pushes then), else plus the tag. Spellings that
  // normalize alike ("nginx:1.25", "docker.io/library/nginx:1.25") share a
  // key; "nginx:1.25" and "nginx:1.26" do not.
  std::string Key() const;
  // This reference viewed in its own strings.
  ImageRefView view() const;

  bool operator==(const ImageRef&) const = default;
};

// A parsed, normalized reference viewed in the text it was parsed from (the
// defaults in static strings) or in an ImageRef's strings (ImageRef::view):
// what the index needs of a reference, without an allocation. ImageRef::path
// is path_prefix + path_rest, where the prefix is "library/" when Docker
// Hub's official-image rule adds it, else empty.
struct ImageRefView {
  std::string_view domain;
  std::string_view path_prefix;
  std::string_view path_rest;
  std::string_view tag;
  std::string_view digest;
};

// Parses and normalizes `text`. InvalidArgument, naming the reference, when it
// is empty, contains whitespace or control characters, has an empty or
// malformed path component (uppercase letters, leading or trailing
// separators), an invalid tag (more than 128 characters, or characters
// outside [A-Za-z0-9_.-], or a leading '.' or '-'), or a malformed digest
// ("<algorithm>:<hex>", sha256 needing exactly 64 lowercase hex digits).
Result<ImageRef> ParseImageRef(std::string_view text);
// The same as a view into `text`, which must outlive it (for loops over
// many references: no allocation unless the reference is invalid). On error
// `*ref` is unspecified.
Status ParseImageRef(std::string_view text, ImageRefView* ref);

// Appends the reference's Name() to `out`.
void AppendImageName(std::string* out, const ImageRefView& ref);
// Appends the reference's Key() to `out` without building intermediate
// strings; used on hot paths (indexing a million references).
void AppendImageKey(std::string* out, const ImageRefView& ref);

// CRC-32 (IEEE, as Go's hash/crc32.ChecksumIEEE and zlib's crc32) of Name().
std::uint32_t ZarfCrc(const ImageRef& ref);

// "<tag>-zarf-<ZarfCrc>", or "" for a digest reference (Zarf pushes those
// by digest only).
std::string ZarfCrcTag(const ImageRef& ref);

// The references Zarf pushed for `ref` into its registry, as repository
// references relative to that registry: "<path>:<tag>" and
// "<path>:<ZarfCrcTag>", or the single "<path>@<digest>". With a non-empty
// `registry` (e.g. "127.0.0.1:31999") each is prefixed by "<registry>/", the
// exact reference Zarf pushed.
std::vector<std::string> PushedReferences(const ImageRef& ref,
                                          std::string_view registry = {});

}  // namespace zs::engine

#endif  // ZARF_STATE_ENGINE_IMAGE_REF_H_
