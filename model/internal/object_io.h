// Helpers for decoding and encoding Go structs as JSON objects, shared by the
// model, config and Secret codecs. Internal to model/.
//
// FieldDecoder walks an object's members in input order, matching names the
// way Go does (exact first, then ASCII case-insensitively), and records the
// members it does not know with their anchor (see UnknownFields). ObjectWriter
// writes fields in Go order, re-inserting those unknown members.
#ifndef ZARF_STATE_MODEL_INTERNAL_OBJECT_IO_H_
#define ZARF_STATE_MODEL_INTERNAL_OBJECT_IO_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/model.h"
#include "json/go_json.h"
#include "json/json_path.h"
#include "json/json_value.h"

namespace zs::internal {

// "deployedComponents[2]" style paths for error messages.
using json::IndexPath;
using json::JoinPath;

// Index of `name` in `fields`: an exact match, else the first ASCII
// case-insensitive one (Go's encoding/json rule), else -1.
int MatchField(std::string_view name, std::initializer_list<std::string_view> fields);

Status TypeError(std::string_view path, std::string_view want, const json::Value& got);

// Go's decoding of scalars into struct fields: `null` leaves the field as it
// was; any other wrong kind is an InvalidArgument naming `path`.
Status DecodeString(const json::Value& v, std::string_view path, std::string* out);
Status DecodeInt64(const json::Value& v, std::string_view path, std::int64_t* out);
Status DecodeBool(const json::Value& v, std::string_view path, bool* out);
Status DecodeTimestamp(const json::Value& v, std::string_view path, Timestamp* out);

// Writes one Go struct. Calls must name every field in Go order, with its
// index, so unknown members anchored to an omitted field still find their
// place.
class ObjectWriter {
 public:
  ObjectWriter(std::string* out, const UnknownFields* unknown);
  ObjectWriter(const ObjectWriter&) = delete;
  ObjectWriter& operator=(const ObjectWriter&) = delete;

  // Starts field `index`: writes the separator and `"name":`. The caller then
  // appends the value to out().
  std::string* Key(int index, std::string_view name);
  // Marks field `index` as done (written or omitted).
  void Skip(int index);
  // Whether field `index` was absent from the input (see UnknownFields).
  bool absent(int index) const {
    return unknown_ != nullptr && unknown_->is_absent(index);
  }
  // Not-omitempty fields: written unless absent from the input and zero.
  void String(int index, std::string_view name, std::string_view value);
  void OmitEmptyString(int index, std::string_view name, std::string_view value);
  void Int(int index, std::string_view name, std::int64_t value);
  void Time(int index, std::string_view name, const Timestamp& t);
  // Writes any remaining unknown members and the closing brace.
  void Finish();

  std::string* out() { return out_; }

 private:
  void Separator();
  void FlushUnknownAnchoredAt(int index);

  std::string* out_;
  const UnknownFields* unknown_;
  std::vector<bool> emitted_;
  bool first_ = true;
};

}  // namespace zs::internal

#endif  // ZARF_STATE_MODEL_INTERNAL_OBJECT_IO_H_
