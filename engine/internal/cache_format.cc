#include "engine/internal/cache_format.h"

#include <algorithm>

#include "engine/derived_status.h"
#include "engine/image_ref.h"

namespace zs::engine::internal {
namespace {

// The metadata record's own version (first byte of the value). Version 1,
// which also held the snapshot's index terms, was never released; version 2
// leaves them out, as they follow from the snapshot stored beside the record.
constexpr unsigned char kMetaVersionUnreleased = 1;
constexpr unsigned char kMetaVersion = 2;
constexpr unsigned char kMetaRemoved = 1;

void PutVarint(std::string* out, std::uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void PutString(std::string* out, std::string_view s) {
  PutVarint(out, s.size());
  out->append(s);
}

void PutTime(std::string* out, const std::optional<Timestamp>& t) {
  PutString(out, t ? FormatRfc3339(*t) : std::string());
}

// Reads what the Put* functions wrote; any overrun makes ok() false.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool done() const { return in_.empty(); }

  std::uint64_t Varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64 && !in_.empty(); shift += 7) {
      const auto b = static_cast<unsigned char>(in_.front());
      in_.remove_prefix(1);
      v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (b < 0x80) return v;
    }
    ok_ = false;
    return 0;
  }
  unsigned char Byte() {
    if (in_.empty()) {
      ok_ = false;
      return 0;
    }
    const auto b = static_cast<unsigned char>(in_.front());
    in_.remove_prefix(1);
    return b;
  }
  std::string String() { return std::string(View()); }
  // The next string, viewed in the input.
  std::string_view View() {
    const std::uint64_t n = Varint();
    if (!ok_ || n > in_.size()) {
      ok_ = false;
      return {};
    }
    const std::string_view s = in_.substr(0, n);
    in_.remove_prefix(n);
    return s;
  }
  std::optional<Timestamp> Time() {
    const std::string s = String();
    if (s.empty()) return std::nullopt;
    auto t = ParseRfc3339(s);
    if (!t.ok()) {
      ok_ = false;
      return std::nullopt;
    }
    return *t;
  }
  std::uint64_t Fixed64() {
    if (in_.size() < 8) {
      ok_ = false;
      return 0;
    }
    const std::uint64_t v = ReadBigEndian64(in_);
    in_.remove_prefix(8);
    return v;
  }

 private:
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace

int IndexCf(IndexKind kind) {
  switch (kind) {
    case IndexKind::kImage:
    case IndexKind::kRepository: return kCfImage;
    case IndexKind::kComponent: return kCfComponent;
    case IndexKind::kOutcome: return kCfOutcome;
    case IndexKind::kSource: return kCfSource;
  }
  return kCfImage;
}

std::string StoredTerm(IndexKind kind, std::string_view term) {
  // Built by appending: `"=" + std::string(term)` trips a false -Wrestrict
  // in g++ 12's inlined char_traits.
  std::string out;
  out.reserve(term.size() + 1);
  if (kind == IndexKind::kImage) out.push_back('=');
  if (kind == IndexKind::kRepository) out.push_back('@');
  out.append(term);
  return out;
}

namespace {

// The tag of image entries ('=' and '@' belonged to unreleased formats, so
// their keys never collide with these).
constexpr char kImageEntryTag = '#';

// Lp(kImageEntryTag + repository).
void AppendImageRepositoryPrefix(std::string* out, std::string_view repository) {
  AppendLength32(out, repository.size() + 1);
  out->push_back(kImageEntryTag);
  out->append(repository);
}

}  // namespace

void SplitImageTerm(std::string_view term, std::string_view* repository,
                    std::string_view* reference) {
  std::size_t cut = term.find('@');
  if (cut == std::string_view::npos) {
    cut = term.rfind(':');
    const std::size_t slash = term.rfind('/');
    if (cut != std::string_view::npos && slash != std::string_view::npos && cut < slash) {
      cut = std::string_view::npos;
    }
  }
  if (cut == std::string_view::npos) cut = term.size();
  *repository = term.substr(0, cut);
  *reference = term.substr(cut);
}

std::string ImageEntryKey(std::string_view term, std::string_view package) {
  std::string out;
  AppendIndexEntryKey(&out, IndexKind::kImage, term, package, kImageEntriesFormat);
  return out;
}

bool AppendIndexEntryKey(std::string* out, IndexKind kind, std::string_view term,
                         std::string_view package, int format) {
  if (format >= kImageEntriesFormat && kind == IndexKind::kRepository) return false;
  if (format >= kImageEntriesFormat && kind == IndexKind::kImage) {
    std::string_view repository, reference;
    SplitImageTerm(term, &repository, &reference);
    out->reserve(out->size() + 9 + term.size() + package.size());
    AppendImageRepositoryPrefix(out, repository);
    AppendLengthPrefixed(out, reference);
  } else {
    AppendLengthPrefixed(out, StoredTerm(kind, term));
  }
  out->append(package);
  return true;
}

IndexLookup LookupOf(IndexKind kind, std::string_view term, int format) {
  IndexLookup l;
  // A term's entries are its entry key without the package; a repository
  // that has none of its own (format 3) is the head of its images' entries.
  if (!AppendIndexEntryKey(&l.prefix, kind, term, /*package=*/"", format)) {
    AppendImageRepositoryPrefix(&l.prefix, term);
    l.package_after_reference = true;
  }
  return l;
}

std::string DescribeIndexKey(int cf, std::string_view key) {
  std::string_view term, package;
  if (!SplitIndexKey(key, &term, &package)) return std::string(kCfNames[cf]) + " malformed key";
  std::string shown(term);
  if (cf == kCfImage && !term.empty() && term.front() == kImageEntryTag) {
    // Lp("#" + repository) + Lp(reference) + package.
    if (const std::size_t p = PrefixLength(package); p != 0) {
      shown = std::string(term.substr(1)) + std::string(package.substr(4, p - 4));
      package = package.substr(p);
    }
  }
  return std::string(kCfNames[cf]) + " '" + shown + "' -> " + std::string(package);
}

void AppendBigEndian64(std::string* out, std::uint64_t v) {
  char bytes[8];
  PutBigEndian<8>(bytes, v);
  out->append(bytes, sizeof bytes);
}

std::uint64_t ReadBigEndian64(std::string_view b) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(b[i]);
  return v;
}

void AppendLength32(std::string* out, std::size_t size) {
  char bytes[4];
  PutBigEndian<4>(bytes, static_cast<std::uint32_t>(size));
  out->append(bytes, sizeof bytes);
}

void AppendLengthPrefixed(std::string* out, std::string_view s) {
  AppendLength32(out, s.size());
  out->append(s);
}

std::size_t PrefixLength(std::string_view key) {
  if (key.size() < 4) return 0;
  std::size_t n = 0;
  for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(key[i]);
  return 4 + n <= key.size() ? 4 + n : 0;
}

namespace {
// Lp(head) + tail: the shape of every log, ids and index key.
std::string PrefixedKey(std::string_view head, std::string_view tail) {
  std::string k;
  k.reserve(4 + head.size() + tail.size());
  AppendLengthPrefixed(&k, head);
  k.append(tail);
  return k;
}
}  // namespace

std::string LogKey(std::string_view package, std::uint64_t seq) {
  std::string be;
  AppendBigEndian64(&be, seq);
  return PrefixedKey(package, be);
}

std::string IdKey(std::string_view package, std::string_view record_id) {
  return PrefixedKey(package, record_id);
}

std::string IndexKey(std::string_view stored_term, std::string_view package) {
  return PrefixedKey(stored_term, package);
}

bool SplitIndexKey(std::string_view key, std::string_view* stored_term,
                   std::string_view* package) {
  const std::size_t p = PrefixLength(key);
  if (p == 0 || p == key.size()) return false;
  *stored_term = key.substr(4, p - 4);
  *package = key.substr(p);
  return true;
}

std::uint64_t LogKeySequence(std::string_view key) {
  const std::size_t p = PrefixLength(key);
  if (p == 0 || key.size() != p + 8) return 0;
  return ReadBigEndian64(key.substr(p));
}

std::string EncodeMeta(const PackageMeta& m) {
  const PackageStatus& s = m.status;
  std::string out;
  out.push_back(static_cast<char>(kMetaVersion));
  out.push_back(static_cast<char>(s.removed ? kMetaRemoved : 0));
  PutString(&out, s.name);
  PutString(&out, s.secret_name);
  PutString(&out, s.secret_namespace);
  PutString(&out, s.version);
  PutVarint(&out, static_cast<std::uint64_t>(s.generation));
  PutString(&out, s.latest);
  PutTime(&out, s.latest_time);
  PutTime(&out, s.in_progress_since);
  AppendBigEndian64(&out, m.payload_hash);
  return out;
}

Result<PackageMeta> DecodeMeta(std::string_view package, std::string_view bytes) {
  Reader r(bytes);
  PackageMeta m;
  PackageStatus& s = m.status;
  s.package = std::string(package);
  const unsigned char version = r.Byte();
  if (r.ok() && version == kMetaVersionUnreleased) {
    return Status::NotSupported("package " + std::string(package) +
                                ": status record of an unreleased cache format; rebuild the "
                                "cache with `zarf-state ingest` into a new directory");
  }
  if (r.ok() && version != kMetaVersion) {
    return Status::Corruption("package " + std::string(package) + ": status record version " +
                              std::to_string(version) + " is unknown");
  }
  s.removed = (r.Byte() & kMetaRemoved) != 0;
  s.name = r.String();
  s.secret_name = r.String();
  s.secret_namespace = r.String();
  s.version = r.String();
  s.generation = static_cast<std::int64_t>(r.Varint());
  s.latest = r.String();
  s.latest_time = r.Time();
  s.in_progress_since = r.Time();
  m.payload_hash = r.Fixed64();
  if (!r.ok() || !r.done()) {
    return Status::Corruption("package " + std::string(package) + ": malformed status record");
  }
  return m;
}

namespace {

// Calls term(kind, text) for each index term of `pkg` that is text of its
// own, and image(ref) for each image reference that parses (its exact term,
// and its repository term, follow from `ref`). Unsorted; a term may repeat.
template <typename Term, typename Image>
void VisitSnapshotTerms(const DeployedPackage& pkg, Term&& term, Image&& image) {
  if (const json::Value* comps = pkg.data.Find("components"); comps && comps->is_array()) {
    ImageRefView ref;
    for (const json::Value& c : comps->array()) {
      const json::Value* list = c.Find("images");
      if (list == nullptr || !list->is_array()) continue;
      for (const json::Value& v : list->array()) {
        if (!v.is_string()) continue;
        if (ParseImageRef(v.as_string(), &ref).ok()) {
          image(ref);
        } else {
          term(IndexKind::kImage, v.as_string());
        }
      }
    }
  }
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) term(IndexKind::kComponent, c.name);
  }
  const PackageEvent* latest = LatestEvent(pkg);
  term(IndexKind::kOutcome, latest ? std::string_view(latest->outcome) : kOutcomeUnknown);
  for (const PackageEvent& e : pkg.events) {
    if (!e.source.empty()) term(IndexKind::kSource, e.source);
  }
}

}  // namespace

std::vector<IndexTerm> SnapshotTerms(const DeployedPackage& pkg, bool repositories) {
  std::vector<IndexTerm> out;
  VisitSnapshotTerms(
      pkg, [&](IndexKind kind, std::string_view term) { out.push_back({kind, std::string(term)}); },
      [&](const ImageRefView& ref) {
        AppendImageKey(&out.emplace_back(IndexTerm{IndexKind::kImage, {}}).term, ref);
        if (repositories) {
          AppendImageName(&out.emplace_back(IndexTerm{IndexKind::kRepository, {}}).term, ref);
        }
      });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void AppendImageEntryKey(std::string* out, const ImageRefView& ref, std::string_view package) {
  const std::size_t repository =
      ref.domain.size() + 1 + ref.path_prefix.size() + ref.path_rest.size();
  const std::string_view reference = ref.digest.empty() ? ref.tag : ref.digest;
  out->reserve(out->size() + 4 + 1 + repository + 4 + 1 + reference.size() + package.size());
  AppendLength32(out, 1 + repository);
  out->push_back(kImageEntryTag);
  AppendImageName(out, ref);
  AppendLength32(out, 1 + reference.size());
  out->push_back(ref.digest.empty() ? ':' : '@');
  out->append(reference);
  out->append(package);
}

void IndexEntries::Build(const DeployedPackage& pkg, std::string_view package, int format) {
  Clear();
  const bool repositories = format < kImageEntriesFormat;
  VisitSnapshotTerms(
      pkg, [&](IndexKind kind, std::string_view term) { Add(kind, term, package, format); },
      [&](const ImageRefView& ref) {
        if (repositories) {
          // Formats 1-2 store whole terms: built as text, as SnapshotTerms does.
          std::string& term = term_scratch_;
          term.clear();
          AppendImageKey(&term, ref);
          Add(IndexKind::kImage, term, package, format);
          term.clear();
          AppendImageName(&term, ref);
          Add(IndexKind::kRepository, term, package, format);
          return;
        }
        const std::size_t begin = keys_.size();
        AppendImageEntryKey(&keys_, ref, package);
        entries_.push_back({kCfImage, begin, keys_.size() - begin});
      });
  Finish();
}

void IndexEntries::Clear() {
  keys_.clear();
  entries_.clear();
}

void IndexEntries::Add(IndexKind kind, std::string_view term, std::string_view package,
                       int format) {
  const std::size_t begin = keys_.size();
  if (AppendIndexEntryKey(&keys_, kind, term, package, format)) {
    entries_.push_back({IndexCf(kind), begin, keys_.size() - begin});
  }
}

void IndexEntries::Finish() {
  std::sort(entries_.begin(), entries_.end(),
            [&](const Entry& a, const Entry& b) { return Less(a, *this, b); });
  entries_.erase(std::unique(entries_.begin(), entries_.end(),
                             [&](const Entry& a, const Entry& b) {
                               return a.cf == b.cf && key(a) == key(b);
                             }),
                 entries_.end());
}

bool IndexEntries::Less(const Entry& a, const IndexEntries& other, const Entry& b) const {
  if (a.cf != b.cf) return a.cf < b.cf;
  return key(a) < other.key(b);
}

Timestamp SnapshotRecord::time() const {
  return kind == RecordKind::kPackageEvent ? event->timestamp : component->last_event->timestamp;
}

void SnapshotRecord::AppendEncoded(std::string* out) const {
  if (kind == RecordKind::kPackageEvent) {
    AppendPackageEventRecord(out, *event);
  } else {
    AppendComponentEventRecord(out, component->name, *component->last_event);
  }
}

std::vector<SnapshotRecord> SnapshotRecords(const DeployedPackage& pkg) {
  std::vector<SnapshotRecord> out;
  for (const PackageEvent& e : pkg.events) {
    if (IsV2Event(e)) out.push_back({RecordKind::kPackageEvent, &e, nullptr});
  }
  if (pkg.deployed_components) {
    for (const DeployedComponent& c : *pkg.deployed_components) {
      if (!c.last_event) continue;
      PackageEvent probe;
      probe.type = c.last_event->type;
      probe.outcome = c.last_event->outcome;
      if (IsV2Event(probe)) out.push_back({RecordKind::kComponentEvent, nullptr, &c});
    }
  }
  return out;
}

void FillStatus(const DeployedPackage& pkg, PackageStatus* s) {
  s->name = pkg.name;
  s->generation = pkg.generation;
  s->version.clear();
  if (const json::Value* md = pkg.data.Find("metadata")) s->version = std::string(md->StringOr("version"));
  s->latest = LatestEventSummary(pkg);
  const PackageEvent* latest = LatestEvent(pkg);
  s->latest_time = latest ? std::optional<Timestamp>(latest->timestamp) : std::nullopt;
  s->in_progress_since = InProgressSince(pkg);
}

}  // namespace zs::engine::internal
