#include "model/internal/object_io.h"

#include <charconv>

namespace zs::internal {
namespace {

bool AsciiEqualFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace

int MatchField(std::string_view name,
               std::initializer_list<std::string_view> fields) {
  int i = 0;
  for (std::string_view f : fields) {
    if (f == name) return i;
    ++i;
  }
  i = 0;
  for (std::string_view f : fields) {
    if (AsciiEqualFold(f, name)) return i;
    ++i;
  }
  return -1;
}

Status TypeError(std::string_view path, std::string_view want,
                 const json::Value& got) {
  std::string msg(path.empty() ? std::string_view("value") : path);
  msg += ": expected ";
  msg += want;
  msg += ", got ";
  msg += json::KindName(got.kind());
  return Status::InvalidArgument(msg);
}

Status DecodeString(const json::Value& v, std::string_view path,
                    std::string* out) {
  if (v.is_null()) return Status::OK();
  if (!v.is_string()) return TypeError(path, "string", v);
  *out = v.as_string();
  return Status::OK();
}

Status DecodeInt64(const json::Value& v, std::string_view path,
                   std::int64_t* out) {
  if (v.is_null()) return Status::OK();
  if (!v.is_number()) return TypeError(path, "integer", v);
  const std::string& raw = v.number_raw();
  std::int64_t parsed = 0;
  auto res = std::from_chars(raw.data(), raw.data() + raw.size(), parsed);
  if (res.ec == std::errc::result_out_of_range) {
    return Status::InvalidArgument(std::string(path) + ": number " + raw +
                                   " overflows int64");
  }
  if (res.ec != std::errc() || res.ptr != raw.data() + raw.size()) {
    return Status::InvalidArgument(std::string(path) + ": number " + raw +
                                   " is not an integer");
  }
  *out = parsed;
  return Status::OK();
}

Status DecodeBool(const json::Value& v, std::string_view path, bool* out) {
  if (v.is_null()) return Status::OK();
  if (!v.is_bool()) return TypeError(path, "boolean", v);
  *out = v.as_bool();
  return Status::OK();
}

Status DecodeTimestamp(const json::Value& v, std::string_view path,
                       Timestamp* out) {
  if (v.is_null()) return Status::OK();
  if (!v.is_string()) return TypeError(path, "RFC 3339 timestamp string", v);
  auto t = ParseRfc3339(v.as_string());
  if (!t.ok()) return t.status().WithContext(path);
  *out = *t;
  return Status::OK();
}

ObjectWriter::ObjectWriter(std::string* out, const UnknownFields* unknown)
    : out_(out), unknown_(unknown) {
  out_->push_back('{');
  if (unknown_ != nullptr && !unknown_->empty()) {
    emitted_.assign(unknown_->members.size(), false);
    FlushUnknownAnchoredAt(-1);
  }
}

void ObjectWriter::Separator() {
  if (!first_) out_->push_back(',');
  first_ = false;
}

void ObjectWriter::FlushUnknownAnchoredAt(int index) {
  if (emitted_.empty()) return;
  for (std::size_t i = 0; i < unknown_->members.size(); ++i) {
    const auto& [anchor, member] = unknown_->members[i];
    if (anchor != index || emitted_[i]) continue;
    emitted_[i] = true;
    Separator();
    json::AppendGoString(out_, member.first);
    out_->push_back(':');
    Status ignored = json::AppendJson(out_, member.second);  // raw: cannot fail
    (void)ignored;
  }
}

std::string* ObjectWriter::Key(int index, std::string_view name) {
  (void)index;
  Separator();
  json::AppendGoString(out_, name);
  out_->push_back(':');
  return out_;
}

void ObjectWriter::Skip(int index) { FlushUnknownAnchoredAt(index); }

void ObjectWriter::String(int index, std::string_view name,
                          std::string_view value) {
  if (!value.empty() || !absent(index))
    json::AppendGoString(Key(index, name), value);
  Skip(index);
}

void ObjectWriter::OmitEmptyString(int index, std::string_view name,
                                   std::string_view value) {
  if (!value.empty()) json::AppendGoString(Key(index, name), value);
  Skip(index);
}

void ObjectWriter::Int(int index, std::string_view name, std::int64_t value) {
  if (value != 0 || !absent(index))
    Key(index, name)->append(std::to_string(value));
  Skip(index);
}

void ObjectWriter::Time(int index, std::string_view name, const Timestamp& t) {
  if (!t.is_zero() || !absent(index)) {
    // An RFC 3339 time has no byte a JSON string escapes.
    std::string* out = Key(index, name);
    out->push_back('"');
    AppendRfc3339(out, t);
    out->push_back('"');
  }
  Skip(index);
}

void ObjectWriter::Finish() {
  // Members anchored to a field index no caller named (cannot happen with a
  // complete field list, but nothing read may be dropped).
  for (std::size_t i = 0; i < emitted_.size(); ++i) {
    if (!emitted_[i]) FlushUnknownAnchoredAt(unknown_->members[i].first);
  }
  out_->push_back('}');
}

}  // namespace zs::internal
