// Rewriting a payload object into another shape's key layout, and checking
// which shapes a payload fits. Both walk a json::Value against the tables of
// schema.h.
//
// Reshape keeps every value: a key the target has is placed at its Go
// position; a key the target lacks stays right after the key it followed in
// the input (so a later migration back puts it where it was), unless it is
// one Zarf itself wrote in another era and it is empty, in which case the
// target shape's Go writer would not have it either and it is removed. A key
// the target requires and the input lacks gets Go's zero value. Every such
// step is recorded in a ChangeLog for the migration report.
//
// Thread safety: reentrant; a ChangeLog belongs to one migration.
#ifndef ZARF_STATE_MIGRATE_INTERNAL_RESHAPE_H_
#define ZARF_STATE_MIGRATE_INTERNAL_RESHAPE_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "json/json_value.h"
#include "migrate/internal/schema.h"

namespace zs::migrate::internal {

// The steps of one migration, for the report. Repeated steps on array items
// ("deployedComponents[0].status", "[1].status", ...) are counted once, with
// the indices written "[*]".
class ChangeLog {
 public:
  void Mapping(std::string_view text);
  void Warning(std::string_view text);
  // In first-seen order, "text (xN)" for repeated steps.
  std::vector<std::string> mappings() const { return Render(mappings_); }
  std::vector<std::string> warnings() const { return Render(warnings_); }

 private:
  struct Counted {
    std::vector<std::string> order;
    std::map<std::string, int, std::less<>> count;
  };
  void Add(Counted* c, std::string_view text);
  static std::vector<std::string> Render(const Counted& c);
  Counted mappings_;
  Counted warnings_;
  std::string key_;  // Add's generalised text, reused
};

// Whether `value` is what Go's encoding/json leaves for an unset field: null,
// false, 0, "", an empty array or object, or an object of such values.
bool IsZero(const json::Value& value);

// Go's zero value for `field` (objects get their non-omitempty members), or
// null for kArray/kAny, which have no useful zero.
json::Value ZeroValue(const Field& field);

// Writes into `*out` the object `*in` laid out as `target` says (see the file
// comment); `*in` is consumed (its values are moved, not copied). `path` names `in` in messages ("" for the payload itself);
// `shape` names the target shape in the log ("S14"). InvalidArgument when a
// value has a type the target field cannot hold (naming path and types) or an
// integer overflows int64, as Go's json.Unmarshal would refuse it.
Status Reshape(json::Value* in, const Schema& target, std::string_view path,
               std::string_view shape, ChangeLog* log, json::Value* out);

// Whether `in` can be a payload of the shape `schema` describes: it has no
// key that Zarf knows but this shape lacks, and every key the shape always
// writes. On false, the first reason in `*why` ("no packageConnectivity",
// "has deployedComponents[0].status").
bool Fits(const json::Value& in, const Schema& schema, std::string_view path, std::string* why);

}  // namespace zs::migrate::internal

#endif  // ZARF_STATE_MIGRATE_INTERNAL_RESHAPE_H_
