// ReadListFileStreaming (secret.h): a List file read through one reused
// buffer, twice, instead of mapped or read whole.
//
// Why twice: the parser refuses some texts before it hands out anything
// (invalid UTF-8, a control byte in a string, a string left open, text after
// the value), and a reader that gave out items first would differ. The first
// pass checks exactly that, lexically (json::ScanValueText), and notes where
// each member and item is; the second reads the same bytes again and builds
// each item right after reading it. Two buffered reads of a file in the page
// cache cost less than the first pass over a mapping of it (docs/
// performance.md), and the items' bytes are in cache when they are built.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "base/memory_budget.h"
#include "io/bounded_read.h"
#include "json/json_reader.h"
#include "kube/internal/list_items.h"
#include "kube/secret.h"

namespace zs {
namespace {

// Bytes read a step (more when an item is larger), and readable after what
// a parse is given in place (json::ParseOptions::readable_padding). A
// smaller step touches fewer fresh pages, once, but reads more often and
// moves a partial item to the front more often, which costs more.
constexpr std::size_t kReadStep = std::size_t{1} << 20;
constexpr std::size_t kPadding = 64;

// The member whose array is streamed, and the member of each item read as
// strings (a Secret's `data`: base64).
constexpr std::string_view kItemsKey = "items";
constexpr std::string_view kStringsKey = "data";

// The file read forward through one buffer: the bytes from the last offset
// asked for onwards, a step at a time, the buffer reused from step to step.
class FileWindow {
 public:
  FileWindow(int fd, std::size_t size) : fd_(fd), size_(size) {}

  // Starts again from the file's first byte.
  void Rewind() {
    begin_ = 0;
    length_ = 0;
  }

  // The bytes from offset `at` (not before the last `at` since Rewind) on
  // that are in memory: at least `want` of them unless the file ends sooner,
  // with kPadding readable bytes after. IOError when the file cannot be
  // read or ends before its size.
  Result<std::string_view> From(std::size_t at, std::size_t want) {
    want = std::min(want, size_ - std::min(at, size_));
    if (at + want > begin_ + length_) {
      // What is before `at` is done with: the rest moves to the front.
      const std::size_t keep = begin_ + length_ > at ? begin_ + length_ - at : 0;
      if (keep > 0) std::memmove(buf_.data(), buf_.data() + (at - begin_), keep);
      begin_ = at;
      length_ = keep;
      const std::size_t target = std::min(size_ - at, std::max(want, kReadStep));
      if (buf_.capacity() < target + kPadding) {
        // In whole huge pages: the window is filled again and again.
        constexpr std::size_t kHuge = tools::ReadMemory::kHugePageBytes;
        const std::size_t bytes = std::max(target + kPadding, 2 * buf_.capacity());
        ZS_RETURN_IF_ERROR(buf_.Reserve((bytes + kHuge - 1) / kHuge * kHuge, "the read window"));
      }
      while (length_ < target) {
        const ssize_t n = ::pread(fd_, buf_.data() + length_, target - length_,
                                  static_cast<off_t>(begin_ + length_));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Status::IOError(std::string("read error: ") + std::strerror(errno));
        if (n == 0) return Status::IOError("the file became shorter while it was read");
        length_ += static_cast<std::size_t>(n);
      }
    }
    return std::string_view(buf_.data() + (at - begin_), begin_ + length_ - at);
  }

  // The byte at `at`, or -1 past the end.
  Result<int> ByteAt(std::size_t at) {
    if (at >= size_) return -1;
    ZS_ASSIGN_OR_RETURN(std::string_view bytes, From(at, 1));
    return static_cast<unsigned char>(bytes[0]);
  }

  // The first offset at or after `at` that is not JSON whitespace (or the
  // file's size).
  Result<std::size_t> SkipBlanks(std::size_t at) {
    while (at < size_) {
      ZS_ASSIGN_OR_RETURN(std::string_view bytes, From(at, 1));
      const std::size_t blank = bytes.find_first_not_of(" \t\r\n");
      if (blank != std::string_view::npos) return at + blank;
      at += bytes.size();
    }
    return size_;
  }

  // The end of the value starting at `at` (json::ScanValueText), reading
  // until it ends; npos when it is refused or the file ends inside it.
  Result<std::size_t> EndOfValue(std::size_t at) {
    std::size_t want = 1;  // first what is in memory already
    while (true) {
      ZS_ASSIGN_OR_RETURN(std::string_view bytes, From(at, want));
      std::size_t end = 0;
      const json::ValueScan scan = json::ScanValueText(bytes, 0, &end);
      if (scan == json::ValueScan::kEnded) return at + end;
      if (scan == json::ValueScan::kRefused || at + bytes.size() >= size_) {
        return std::string_view::npos;
      }
      want = 2 * bytes.size();
    }
  }

 private:
  int fd_;
  std::size_t size_;
  tools::ReadMemory buf_;
  std::size_t begin_ = 0;   // the file offset of buf_[0]
  std::size_t length_ = 0;  // the file's bytes in buf_
};

// Where the top-level object's members are, and the streamed array's items.
struct ListLayout {
  struct Member {
    std::string key;  // written without escapes
    std::size_t begin = 0, end = 0;
  };
  std::vector<Member> members;
  std::size_t streamed = std::string_view::npos;  // the index of `items`
  std::vector<std::pair<std::size_t, std::size_t>> items;
};

// The first pass: false when the file is not one object, with the array
// `items` among its members and only whitespace after it, or when the
// parser would refuse it before handing out an item.
Result<bool> ScanLayout(FileWindow& file, std::size_t size, ListLayout* layout) {
  constexpr std::size_t kNone = std::string_view::npos;
  ZS_ASSIGN_OR_RETURN(std::size_t at, file.SkipBlanks(0));
  ZS_ASSIGN_OR_RETURN(int c, file.ByteAt(at));
  if (c != '{') return false;
  ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(at + 1));
  while (true) {
    ZS_ASSIGN_OR_RETURN(c, file.ByteAt(at));
    if (c != '"') return false;
    ZS_ASSIGN_OR_RETURN(const std::size_t key_end, file.EndOfValue(at));
    if (key_end == kNone) return false;
    ZS_ASSIGN_OR_RETURN(std::string_view key_text, file.From(at, key_end - at));
    const std::string_view key = key_text.substr(1, key_end - at - 2);
    if (key.find('\\') != kNone) return false;
    // A Secret's or a bare payload's `data`, most of its bytes: not a List,
    // told before reading them.
    if (key == kStringsKey) return false;
    ListLayout::Member member{std::string(key)};
    ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(key_end));
    ZS_ASSIGN_OR_RETURN(c, file.ByteAt(at));
    if (c != ':') return false;
    ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(at + 1));
    member.begin = at;
    ZS_ASSIGN_OR_RETURN(c, file.ByteAt(at));
    if (layout->streamed == kNone && member.key == kItemsKey && c == '[') {
      layout->streamed = layout->members.size();
      ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(at + 1));
      ZS_ASSIGN_OR_RETURN(c, file.ByteAt(at));
      while (c != ']') {
        ZS_ASSIGN_OR_RETURN(const std::size_t end, file.EndOfValue(at));
        if (end == kNone) return false;
        layout->items.emplace_back(at, end);
        ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(end));
        ZS_ASSIGN_OR_RETURN(c, file.ByteAt(at));
        if (c == ',') {
          ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(at + 1));
          ZS_ASSIGN_OR_RETURN(c, file.ByteAt(at));
          if (c == ']') return false;
        } else if (c != ']') {
          return false;
        }
      }
      ++at;
    } else {
      ZS_ASSIGN_OR_RETURN(at, file.EndOfValue(at));
      if (at == kNone) return false;
    }
    member.end = at;
    layout->members.push_back(std::move(member));
    ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(at));
    ZS_ASSIGN_OR_RETURN(c, file.ByteAt(at));
    if (c == '}') break;
    if (c != ',') return false;
    ZS_ASSIGN_OR_RETURN(at, file.SkipBlanks(at + 1));
  }
  ZS_ASSIGN_OR_RETURN(const std::size_t after, file.SkipBlanks(at + 1));
  return layout->streamed != kNone && after == size;
}

// What the parser takes from the budget for a value it visits inside
// another, which a parse of the value alone does not take for a scalar.
// False when the budget has no more.
bool TakeScalarCost(const json::Value& value, MemoryBudget* budget) {
  return value.is_object() || value.is_array() || budget->Take(kValueCost);
}

// The whole text, for the parser to go on from where the second pass
// stopped; with kPadding spare bytes of capacity.
Result<std::string> ReadWhole(FileWindow& file, std::size_t size) {
  std::string text;
  text.reserve(size + kPadding);
  file.Rewind();
  for (std::size_t at = 0; at < size;) {
    ZS_ASSIGN_OR_RETURN(std::string_view bytes, file.From(at, kReadStep));
    text.append(bytes);
    at += bytes.size();
  }
  return text;
}

// The second pass: each member and item read again and built, the items
// handed out as they are built.
class ListBuilder {
 public:
  ListBuilder(FileWindow* file, std::size_t size, const ListLayout& layout,
              std::string_view source, const ReadLimits& limits, Input* header,
              const std::function<Status(InputObject)>& on_object)
      : file_(file), size_(size), layout_(layout), source_(source), header_(header),
        on_object_(on_object), budget_(size) {
    options_.max_bytes = limits.max_bytes;
    options_.max_depth = limits.max_depth;
    options_.budget = &budget_;
  }

  Status Run() {
    header_->format = TextFormat::kJson;
    file_->Rewind();
    // Items sit at depth 3 and the envelope's members at 2.
    const std::size_t max_depth = std::min<std::size_t>(options_.max_depth, 1024);
    json::ParseOptions item_options = options_;
    item_options.max_depth = max_depth - 2;
    json::ParseOptions member_options = options_;
    member_options.max_depth = max_depth - 1;
    json::Value envelope = json::Value::MakeObject();
    for (std::size_t m = 0; m < layout_.members.size(); ++m) {
      const ListLayout::Member& member = layout_.members[m];
      if (m == layout_.streamed) {
        envelope.object().emplace_back(member.key, json::Value::MakeArray());
        for (const auto& [begin, end] : layout_.items) {
          ZS_ASSIGN_OR_RETURN(std::string_view bytes, file_->From(begin, end - begin));
          item_options.readable_padding = bytes.size() - (end - begin) + kPadding;
          const std::size_t before = budget_.used();
          Result<json::Value> item =
              json::ParseJsonTakingStrings(bytes.substr(0, end - begin), kStringsKey, item_options);
          if (!item.ok() || !TakeScalarCost(*item, &budget_)) {
            return ParserFromHere(budget_.used() - before);
          }
          ZS_RETURN_IF_ERROR(OnItem(std::move(*item), handed_out_++, envelope));
        }
        continue;
      }
      ZS_ASSIGN_OR_RETURN(std::string_view bytes,
                          file_->From(member.begin, member.end - member.begin));
      const std::size_t before = budget_.used();
      // A lone scalar is parsed from a padded copy (readable_padding 0).
      Result<json::Value> value =
          json::ParseJson(bytes.substr(0, member.end - member.begin), member_options);
      const bool built = value.ok() && TakeScalarCost(*value, &budget_);
      envelope_taken_ += budget_.used() - before;
      if (!built) return ParserFromHere(0);
      envelope.object().emplace_back(member.key, std::move(*value));
    }
    return OnEnvelope(std::move(envelope));
  }

 private:
  // What ReadInputStreaming does with each item and with the envelope.
  Status OnItem(json::Value item, std::size_t index, const json::Value& so_far) {
    header_->is_list = true;
    if (header_->list_envelope.is_null()) header_->list_envelope = so_far;
    return internal::DeliverListItem(
        std::move(item), std::string(source_) + " items[" + std::to_string(index) + "]", header_,
        on_object_);
  }
  Status OnEnvelope(json::Value envelope) {
    header_->is_list = true;
    header_->list_envelope = std::move(envelope);
    return Status::OK();
  }

  // The parser goes on from here, on the whole text: what this pass took
  // that the parser takes again (the envelope, a failed item's part) is
  // given back first.
  Status ParserFromHere(std::size_t failed_taken) {
    budget_.Give(envelope_taken_ + failed_taken);
    ZS_ASSIGN_OR_RETURN(std::string text, ReadWhole(*file_, size_));
    json::ParseOptions rest = options_;
    rest.readable_padding = text.capacity() - text.size();
    return json::ParseJsonStreamingFrom(
        text, kItemsKey, rest,
        [this](json::Value item, std::size_t index, const json::Value& so_far) {
          return OnItem(std::move(item), index, so_far);
        },
        // Streamed, always: `items` is an array.
        [this](json::Value envelope, bool) { return OnEnvelope(std::move(envelope)); },
        handed_out_);
  }

  FileWindow* file_;
  std::size_t size_;
  const ListLayout& layout_;
  std::string_view source_;
  Input* header_;
  const std::function<Status(InputObject)>& on_object_;
  MemoryBudget budget_;
  json::ParseOptions options_;
  std::size_t envelope_taken_ = 0;  // what the envelope's members took from the budget
  std::size_t handed_out_ = 0;
};

}  // namespace

std::optional<Status> ReadListFileStreaming(int fd, std::size_t size, std::string_view source,
                                            const ReadLimits& limits, Input* header,
                                            const std::function<Status(InputObject)>& on_object) {
  // Items sit at depth 3: a lower limit is left to the parser.
  if (size == 0 || size > limits.max_bytes || limits.max_depth < 3) return std::nullopt;
  FileWindow file(fd, size);
  ListLayout layout;
  Result<bool> laid_out = ScanLayout(file, size, &layout);
  if (!laid_out.ok() || !*laid_out) return std::nullopt;
  ListBuilder builder(&file, size, layout, source, limits, header, on_object);
  Status s = builder.Run();
  if (!s.ok()) return s.WithContext(source);
  return s;
}

}  // namespace zs
