// The key layout of every state shape, as data: which keys an object of each
// shape has, in Go's write order, with their JSON types and whether Go omits
// them when empty. Detection (which shapes a payload fits) and reshaping (the
// payload rewritten into another shape) both work from these tables, so a
// shape is described once (migrate/FORMATS.md is the prose version).
//
// Thread safety: the tables are built once, on first use, and immutable.
#ifndef ZARF_STATE_MIGRATE_INTERNAL_SCHEMA_H_
#define ZARF_STATE_MIGRATE_INTERNAL_SCHEMA_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/shape.h"

namespace zs::migrate::internal {

enum class FieldType {
  kBool,
  kString,
  kInt,     // a JSON integer that fits int64
  kTime,    // a string holding a Go time.Time; zero "0001-01-01T00:00:00Z"
  kObject,  // an object described by `sub`
  kArray,   // an array of objects described by `sub`
  kAny,     // anything; not looked into (the package definition, maps)
};

struct Schema;

struct Field {
  std::string key;
  FieldType type = FieldType::kString;
  bool omitempty = false;
  const Schema* sub = nullptr;  // kObject, kArray
};

// One object level of one shape.
struct Schema {
  std::vector<Field> fields;
  // Every key some legacy shape has at this level: a key in that set but not
  // in `fields` is one Zarf had and dropped (or has not added yet); any other
  // key is unknown to Zarf altogether.
  const std::set<std::string, std::less<>>* known_anywhere = nullptr;

  // The field named `key`, or nullptr; its index in `fields` in `*index`.
  // The search starts at field `from` and wraps around: an object's members
  // mostly come in the schema's order, so the field after the last one
  // found is the one to try first.
  const Field* Find(std::string_view key, int* index = nullptr, std::size_t from = 0) const;
  bool KnownAnywhere(std::string_view key) const {
    return known_anywhere != nullptr && known_anywhere->count(key) != 0;
  }
};

const Schema& PackageSchema(PackageShape shape);
const Schema& StateSchema(StateShape shape);

}  // namespace zs::migrate::internal

#endif  // ZARF_STATE_MIGRATE_INTERNAL_SCHEMA_H_
