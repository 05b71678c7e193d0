#include "compact/compact.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <simdjson.h>
#include <xxhash.h>
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "base/memory_budget.h"
#include "compact/event.pb.h"
#include "compact/internal/format.h"
#include "compact/internal/pb_convert.h"
#include "compact/message_shapes.h"
#include "model/limits.h"
#include "json/go_json.h"
#include "json/json_reader.h"

namespace zs::compact {
namespace internal {
// Defined in the source CMake generates from compact/data/zarf_state*.dict;
// empty when the build has no dictionary file.
const std::vector<std::string_view>& EmbeddedDictionaries();
}  // namespace internal

namespace {

namespace pb = ::zs::compact::pb;
namespace format = ::zs::compact::internal;
namespace shapes = ::zs::compact::internal::shapes;
using format::GetPackage;
using format::JsonCost;
using format::PutPackage;

static_assert(format::kVersion == kFormatVersion);

// ---------------------------------------------------------------- budgets

// Decode budgets. An envelope lives in a Secret, which holds at most
// kSecretSizeLimit bytes, so its payload may decompress to at most
// kExpansionFactor times that; a larger declared length is refused before any
// allocation. Within that, the decoded payload and its messages are charged
// to the memory budget of the envelope's size (base/memory_budget.h) on the
// wire, before any is built: the payload its bytes (held, and copied into
// the model's strings), each message (component, chart, connect string,
// event, timestamp, unknown member, JSON value) what its struct takes,
// kFieldCost per field of its type, and each node of a JSON text what the
// JSON reader charges, parsed with what is left of the budget. A
// Zarf-written package takes far less (docs/reliability.md#memory-budget).
constexpr std::size_t kExpansionFactor = 16;
constexpr std::size_t kMaxDecodedBytes =
    kSecretSizeLimit * kExpansionFactor;
static_assert(kMaxDecodedBytes <= format::kMaxUncompressedBytes);

Status OverBudget(std::size_t envelope_bytes) {
  return MemoryBudget(envelope_bytes).Exceeded("compact: the payload");
}

// What a decoded message of `type` (a shapes:: index) takes (its struct in
// the model and in the parsing arena).
std::size_t MessageCost(int type) {
  return kFieldCost * (1 + static_cast<std::size_t>(shapes::kFieldCount[type]));
}

// Reads a base-128 varint; false past `end` or over 10 bytes.
bool ReadVarint(const std::uint8_t** p, const std::uint8_t* end,
                std::uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 70 && *p < end; shift += 7) {
    const std::uint8_t b = *(*p)++;
    *v |= std::uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

enum class Scan { kOk, kMalformed, kOverBudget };

// Walks the wire bytes [p, end) of a message of `type`, taking MessageCost
// bytes from `*left` per embedded message, recursively; JSON texts are charged when
// parsed (GetJson). Malformed wire data is left for the parser to report,
// except groups, which no writer of this format emits.
Scan CountMessages(const std::uint8_t* p, const std::uint8_t* end,
                   int type, int depth,
                   std::size_t* left) {
  if (depth > format::kProtoRecursionLimit) return Scan::kMalformed;
  while (p < end) {
    std::uint64_t tag = 0;
    if (!ReadVarint(&p, end, &tag)) return Scan::kMalformed;
    std::uint64_t skip = 0;
    switch (tag & 7) {
      case 0:
        if (!ReadVarint(&p, end, &skip)) return Scan::kMalformed;
        skip = 0;
        break;
      case 1:
        skip = 8;
        break;
      case 5:
        skip = 4;
        break;
      case 2: {
        if (!ReadVarint(&p, end, &skip)) return Scan::kMalformed;
        if (skip > static_cast<std::uint64_t>(end - p)) return Scan::kMalformed;
        const std::uint64_t number = tag >> 3;
        const int inner_type =
            number <= 1u << 29 ? shapes::FieldMessage(type, static_cast<int>(number)) : -1;
        if (inner_type >= 0) {
          const std::size_t cost = MessageCost(inner_type);
          if (*left < cost) return Scan::kOverBudget;
          *left -= cost;
          const Scan inner = CountMessages(p, p + skip, inner_type, depth + 1, left);
          if (inner != Scan::kOk) return inner;
        }
        break;
      }
      default:
        return Scan::kMalformed;
    }
    if (skip > static_cast<std::uint64_t>(end - p)) return Scan::kMalformed;
    p += skip;
  }
  return Scan::kOk;
}

// ---------------------------------------------------------------- zstd

// The embedded dictionary with zstd id `id`, or empty when this build has
// none by that id. Every embedded file must be one format.h lists.
std::string_view Dictionary(std::uint32_t id) {
  static const auto* by_id = [] {
    auto* m = new std::map<std::uint32_t, std::string_view>();
    for (const std::string_view d : internal::EmbeddedDictionaries()) {
      const std::uint32_t got = ZDICT_getDictID(d.data(), d.size());
      const bool known = std::find(std::begin(format::kKnownDictionaryIds),
                                   std::end(format::kKnownDictionaryIds),
                                   got) != std::end(format::kKnownDictionaryIds);
      // A retrained dictionary is a new id (format.h), never a silent swap.
      assert(known && "compact/data/zarf_state*.dict not listed in format.h");
      if (known) (*m)[got] = d;
    }
    return m;
  }();
  const auto it = by_id->find(id);
  return it == by_id->end() ? std::string_view() : it->second;
}

// The dictionary writers use.
std::string_view WriterDictionary() {
  return Dictionary(format::kWriterDictionaryId);
}

// A digested writer dictionary per compression level, built on first use and
// kept for the life of the process (zstd ties a CDict to its level).
const ZSTD_CDict* CDictFor(int level) {
  static std::mutex mu;
  static auto* cache = new std::map<int, ZSTD_CDict*>();
  std::lock_guard<std::mutex> lock(mu);
  ZSTD_CDict*& cdict = (*cache)[level];
  if (cdict == nullptr) {
    cdict = ZSTD_createCDict(WriterDictionary().data(),
                             WriterDictionary().size(), level);
  }
  return cdict;
}

// A digested dictionary per id, for reading; nullptr for an unknown id.
const ZSTD_DDict* DDictFor(std::uint32_t id) {
  static std::mutex mu;
  static auto* cache = new std::map<std::uint32_t, ZSTD_DDict*>();
  const std::string_view dict = Dictionary(id);
  if (dict.empty()) return nullptr;  // no entry: ids come from untrusted input
  std::lock_guard<std::mutex> lock(mu);
  ZSTD_DDict*& ddict = (*cache)[id];
  if (ddict == nullptr) ddict = ZSTD_createDDict(dict.data(), dict.size());
  return ddict;
}

// One context per thread, reused so that its tables are allocated once.
struct ZstdFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

ZSTD_CCtx* ThreadCCtx() {
  thread_local std::unique_ptr<ZSTD_CCtx, ZstdFree> cctx(ZSTD_createCCtx());
  return cctx.get();
}

ZSTD_DCtx* ThreadDCtx() {
  thread_local std::unique_ptr<ZSTD_DCtx, ZstdFree> dctx(ZSTD_createDCtx());
  return dctx.get();
}

// A buffer per thread and purpose, reused across calls so that the large
// transient buffers of a call (the Protobuf bytes, the compressed frame) are
// neither zero-filled nor faulted in again each time. Buffers over 8 MiB are
// not kept.
class Scratch {
 public:
  // Room for `n` bytes, valid until the next Get on this object.
  char* Get(std::size_t n) {
    if (n > kKeepBytes) {
      oversized_.reset(new char[n]);
      return oversized_.get();
    }
    oversized_.reset();
    if (n > capacity_) {
      kept_.reset(new char[n]);
      capacity_ = n;
    }
    return kept_.get();
  }

 private:
  static constexpr std::size_t kKeepBytes = 8u << 20;
  std::unique_ptr<char[]> kept_;
  std::size_t capacity_ = 0;
  std::unique_ptr<char[]> oversized_;
};

enum class ScratchUse { kProto, kFrame, kCount };

Scratch& ThreadScratch(ScratchUse use) {
  thread_local Scratch scratch[static_cast<int>(ScratchUse::kCount)];
  return scratch[static_cast<int>(use)];
}

// Compresses `src` into `dst` (capacity `cap`); returns the frame's size.
// The frame omits its content size, dictionary id and checksum: the envelope
// carries all three.
Result<std::size_t> Compress(std::string_view src, int level, bool dictionary,
                             char* dst, std::size_t cap) {
  ZSTD_CCtx* cctx = ThreadCCtx();
  const ZSTD_CDict* cdict = dictionary ? CDictFor(level) : nullptr;
  if (cctx == nullptr || (dictionary && cdict == nullptr)) {
    return Status::IOError("compact: out of memory for zstd");
  }
  ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
  if (cdict != nullptr) ZSTD_CCtx_refCDict(cctx, cdict);
  const std::size_t n = ZSTD_compress2(cctx, dst, cap, src.data(), src.size());
  if (ZSTD_isError(n)) {
    return Status::IOError(std::string("compact: zstd: ") +
                           ZSTD_getErrorName(n));
  }
  return n;
}

// ---------------------------------------------------------------- envelope

void PutFixed(char* p, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<char>(v >> (8 * i));
}

std::uint64_t GetFixed(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

std::string Hex(std::uint64_t v) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, res.ptr);
}

// Arena blocks sized for a message of about `bytes`, so that a large one is
// built in a few blocks. Sizes stay multiples of 4 KiB: the arena keeps its
// cleanup list at the end of a block and needs that end 8-byte aligned.
google::protobuf::ArenaOptions ArenaOptionsFor(std::size_t bytes) {
  constexpr std::size_t kPage = 4096;
  google::protobuf::ArenaOptions options;
  options.start_block_size = std::clamp<std::size_t>(
      (bytes + kPage - 1) / kPage * kPage, kPage, std::size_t{1} << 20);
  options.max_block_size = std::size_t{4} << 20;
  return options;
}

// The proto bytes of an envelope whose header checks passed: the stored
// bytes themselves, or the frame decompressed into this thread's scratch
// buffer (valid until the next call on this thread).
Result<std::string_view> Payload(std::string_view bytes, std::uint8_t flags,
                                 std::uint32_t dictionary_id,
                                 std::uint32_t length) {
  std::string_view payload = bytes.substr(format::kHeaderSize);
  if ((flags & format::kFlagZstd) == 0) {
    if (payload.size() != length) {
      return Status::Corruption(
          "compact: stored payload is " + std::to_string(payload.size()) +
          " bytes, header says " + std::to_string(length));
    }
    return payload;
  }
  const std::size_t frame =
      ZSTD_findFrameCompressedSize(payload.data(), payload.size());
  if (ZSTD_isError(frame) || frame != payload.size()) {
    return Status::Corruption("compact: payload is not a single zstd frame");
  }
  char* out = ThreadScratch(ScratchUse::kProto).Get(length);
  ZSTD_DCtx* dctx = ThreadDCtx();
  if (dctx == nullptr)
    return Status::IOError("compact: out of memory for zstd");
  const std::size_t n =
      (flags & format::kFlagDictionary) != 0
          ? ZSTD_decompress_usingDDict(dctx, out, length, payload.data(),
                                       payload.size(), DDictFor(dictionary_id))
          : ZSTD_decompressDCtx(dctx, out, length, payload.data(),
                                payload.size());
  if (ZSTD_isError(n)) {
    return Status::Corruption(std::string("compact: zstd: ") +
                              ZSTD_getErrorName(n));
  }
  if (n != length) {
    return Status::Corruption("compact: payload decompresses to " +
                              std::to_string(n) + " bytes, header says " +
                              std::to_string(length));
  }
  return std::string_view(out, length);
}

// What an envelope's header says, once checked.
struct Header {
  std::uint8_t flags = 0;
  std::uint32_t dictionary_id = 0;
  std::uint32_t length = 0;
};

// The header of `bytes` and the checksum of what follows it: Corruption for
// a malformed envelope, NotSupported for one of a newer format or with a
// dictionary this build lacks.
Result<Header> CheckHeader(std::string_view bytes) {
  Header header;
  if (bytes.size() < format::kHeaderSize) {
    return Status::Corruption(
        "compact: envelope of " + std::to_string(bytes.size()) +
        " bytes is shorter than its " + std::to_string(format::kHeaderSize) +
        "-byte header");
  }
  if (!LooksCompact(bytes)) return Status::Corruption("compact: bad magic");
  const std::uint8_t version =
      static_cast<std::uint8_t>(bytes[format::kVersionOffset]);
  if (version == 0)
    return Status::Corruption("compact: invalid format version 0");
  if (version > format::kVersion) {
    return Status::NotSupported("compact: format version " +
                                std::to_string(version) + " is newer than " +
                                std::to_string(format::kVersion));
  }
  const std::uint8_t flags =
      static_cast<std::uint8_t>(bytes[format::kFlagsOffset]);
  header.flags = flags;
  if ((flags & ~format::kKnownFlags) != 0 ||
      ((flags & format::kFlagDictionary) != 0 &&
       (flags & format::kFlagZstd) == 0)) {
    return Status::Corruption("compact: invalid flags " + Hex(flags));
  }
  const auto dictionary_id = static_cast<std::uint32_t>(
      GetFixed(bytes.data() + format::kDictionaryIdOffset, 4));
  header.dictionary_id = dictionary_id;
  if (((flags & format::kFlagDictionary) != 0) !=
      (dictionary_id != format::kNoDictionary)) {
    return Status::Corruption("compact: flags " + Hex(flags) +
                              " disagree with dictionary id " +
                              std::to_string(dictionary_id));
  }
  if (dictionary_id != format::kNoDictionary &&
      DDictFor(dictionary_id) == nullptr) {
    return Status::NotSupported("compact: unknown dictionary id " +
                                std::to_string(dictionary_id));
  }
  const auto length = static_cast<std::uint32_t>(
      GetFixed(bytes.data() + format::kLengthOffset, 4));
  header.length = length;
  if (length > kMaxDecodedBytes) {  // a header field: Corruption, as its peers
    return Status::Corruption(
        "compact: declared length " + std::to_string(length) +
        " exceeds the decode budget of " + std::to_string(kMaxDecodedBytes) +
        " bytes (" + std::to_string(kExpansionFactor) + " x the " +
        std::to_string(kSecretSizeLimit) + "-byte Secret limit)");
  }
  const std::uint64_t checksum =
      GetFixed(bytes.data() + format::kChecksumOffset, 8);
  const std::uint64_t actual =
      XXH64(bytes.data() + format::kHeaderSize,
            bytes.size() - format::kHeaderSize, format::kChecksumSeed);
  if (checksum != actual) {
    return Status::Corruption("compact: checksum mismatch: header " +
                              Hex(checksum) + ", payload " + Hex(actual));
  }
  return header;
}

Status CheckOptions(const EncodeOptions& options) {
  if (options.level < ZSTD_minCLevel() || options.level > ZSTD_maxCLevel()) {
    return Status::InvalidArgument(
        "compact: zstd level " + std::to_string(options.level) + " outside [" +
        std::to_string(ZSTD_minCLevel()) + ", " +
        std::to_string(ZSTD_maxCLevel()) + "]");
  }
  if (options.use_dictionary && WriterDictionary().empty()) {
    return Status::NotSupported("compact: this build has no dictionary");
  }
  return Status::OK();
}

// The Protobuf bytes of `pkg`, in the buffer `get(size)` returns, and what
// the decoder will count for them (`*cost`, the JSON values of unknown
// members included): refused here rather than written unreadable.
template <typename GetBuffer>
Result<std::string_view> Serialize(const DeployedPackage& pkg, GetBuffer get,
                                   std::size_t* cost) {
  std::string_view proto;
  {
    google::protobuf::Arena arena(ArenaOptionsFor(64 << 10));
    auto* message =
        google::protobuf::Arena::CreateMessage<pb::DeployedPackage>(&arena);
    ZS_RETURN_IF_ERROR(PutPackage(pkg, message));
    const std::size_t size = message->ByteSizeLong();
    if (size > kMaxDecodedBytes) {
      return Status::TooLarge(
          "compact: encoding is " + std::to_string(size) + " bytes, over the " +
          std::to_string(kMaxDecodedBytes) + "-byte limit");
    }
    char* buffer = get(size);
    message->SerializeWithCachedSizesToArray(
        reinterpret_cast<std::uint8_t*>(buffer));
    proto = std::string_view(buffer, size);
  }
  *cost = proto.size() + MessageCost(shapes::kDeployedPackage) +
          JsonCost(pkg.data) +
          (pkg.deploy_config ? JsonCost(*pkg.deploy_config) : 0);
  std::size_t left = std::size_t{1} << 62;
  const auto* wire = reinterpret_cast<const std::uint8_t*>(proto.data());
  CountMessages(wire, wire + proto.size(), shapes::kDeployedPackage,
                0, &left);
  *cost += (std::size_t{1} << 62) - left;
  return proto;
}

// The envelope of the Protobuf bytes `proto`, whose decode costs `cost`.
Result<std::string> Envelope(std::string_view proto, std::size_t cost,
                             const EncodeOptions& options) {
  const std::size_t bound = ZSTD_compressBound(proto.size());
  char* frame = ThreadScratch(ScratchUse::kFrame).Get(bound);
  std::uint8_t flags = format::kFlagZstd |
                       (options.use_dictionary ? format::kFlagDictionary : 0);
  ZS_ASSIGN_OR_RETURN(std::size_t n,
                      Compress(proto, options.level, options.use_dictionary,
                               frame, bound));
  std::string_view body(frame, n);
  if (n >= proto.size()) {  // incompressible: store it as is
    flags = 0;
    body = proto;
  }
  std::string out(format::kHeaderSize, '\0');
  out.reserve(format::kHeaderSize + body.size());
  out.append(body);
  std::memcpy(out.data() + format::kMagicOffset, format::kMagic.data(),
              format::kMagic.size());
  out[format::kVersionOffset] = static_cast<char>(format::kVersion);
  out[format::kFlagsOffset] = static_cast<char>(flags);
  PutFixed(out.data() + format::kDictionaryIdOffset,
           (flags & format::kFlagDictionary) != 0
               ? format::kWriterDictionaryId
               : format::kNoDictionary,
           4);
  PutFixed(out.data() + format::kLengthOffset, proto.size(), 4);
  PutFixed(out.data() + format::kChecksumOffset,
           XXH64(body.data(), body.size(), format::kChecksumSeed),
           8);
  if (cost > MemoryBudgetFor(out.size())) {
    return Status::TooLarge(
        "compact: decoding would take " + std::to_string(cost) + " bytes, " +
        std::string(kOverMemoryBudget) + " of " +
        std::to_string(MemoryBudgetFor(out.size())) + " bytes for a " +
        std::to_string(out.size()) + "-byte envelope");
  }
  return out;
}

}  // namespace

Result<std::string> Encode(const DeployedPackage& pkg,
                           const EncodeOptions& options) {
  ZS_RETURN_IF_ERROR(CheckOptions(options));
  std::size_t cost = 0;
  auto scratch = [](std::size_t n) {
    return ThreadScratch(ScratchUse::kProto).Get(n);
  };
  ZS_ASSIGN_OR_RETURN(const std::string_view proto,
                      Serialize(pkg, scratch, &cost));
  return Envelope(proto, cost, options);
}

Result<Prepared> Prepare(const DeployedPackage& pkg) {
  Prepared prepared;
  auto own = [&](std::size_t n) {
    prepared.proto.resize(n);
    return prepared.proto.data();
  };
  ZS_RETURN_IF_ERROR(Serialize(pkg, own, &prepared.cost).status());
  return prepared;
}

Result<std::string> Seal(const Prepared& prepared, const EncodeOptions& options) {
  ZS_RETURN_IF_ERROR(CheckOptions(options));
  return Envelope(prepared.proto, prepared.cost, options);
}

Result<DeployedPackage> Decode(std::string_view bytes) {
  ZS_ASSIGN_OR_RETURN(const Header header, CheckHeader(bytes));
  ZS_ASSIGN_OR_RETURN(const std::string_view proto,
                      Payload(bytes, header.flags, header.dictionary_id, header.length));
  const std::size_t budget = MemoryBudgetFor(bytes.size());
  const std::size_t root = proto.size() + MessageCost(shapes::kDeployedPackage);
  if (root > budget) return OverBudget(bytes.size());
  std::size_t left = budget - root;
  const auto* wire = reinterpret_cast<const std::uint8_t*>(proto.data());
  if (CountMessages(wire, wire + proto.size(),
                    shapes::kDeployedPackage, 0,
                    &left) == Scan::kOverBudget) {
    return OverBudget(bytes.size());
  }

  google::protobuf::Arena arena(ArenaOptionsFor(proto.size()));
  auto* message =
      google::protobuf::Arena::CreateMessage<pb::DeployedPackage>(&arena);
  google::protobuf::io::CodedInputStream input(
      reinterpret_cast<const std::uint8_t*>(proto.data()),
      static_cast<int>(proto.size()));
  input.SetRecursionLimit(format::kProtoRecursionLimit);
  if (!message->ParseFromCodedStream(&input) ||
      !input.ConsumedEntireMessage()) {
    return Status::Corruption("compact: invalid " + message->GetTypeName());
  }
  DeployedPackage pkg;
  const Status got = GetPackage(*message, &left, &pkg);
  if (got.code() == Status::Code::kInvalidArgument) {
    return OverBudget(bytes.size());
  }
  ZS_RETURN_IF_ERROR(got);
  return pkg;
}

bool LooksCompact(std::string_view bytes) {
  return bytes.starts_with(format::kMagic);
}

std::vector<std::uint32_t> DictionaryIds() {
  std::vector<std::uint32_t> ids;
  for (const std::uint32_t id : format::kKnownDictionaryIds) {
    if (!Dictionary(id).empty()) ids.push_back(id);
  }
  return ids;
}

std::uint32_t WriterDictionaryId() {
  return WriterDictionary().empty() ? format::kNoDictionary : format::kWriterDictionaryId;
}

}  // namespace zs::compact
