#include "model/internal/go_schema.h"

#include <set>
#include <utility>

#include "json/json_reader.h"
#include "json/json_value.h"

namespace zs::internal {

// Builds a GoSchema's types. Named types are resolved on first use, so their
// order in the file does not matter; a struct reached again while its own
// fields are being resolved (through a pointer or a slice) is handed out
// unfinished, which is fine because only embedding needs its fields.
class GoSchemaBuilder {
 public:
  explicit GoSchemaBuilder(GoSchema* schema) : schema_(schema) {}

  Status Load(const json::Value& root) {
    if (!root.is_array()) return Status::InvalidArgument("types file: expected an array of types");
    for (const json::Value& t : root.array()) {
      const std::string package(t.StringOr("package"));
      const std::string name(t.StringOr("name"));
      if (!t.is_object() || package.empty() || name.empty()) {
        return Status::InvalidArgument("types file: a type without package or name");
      }
      declared_[package + "." + name] = &t;
    }
    for (const auto& [qualified, decl] : declared_) {
      ZS_ASSIGN_OR_RETURN(const GoType* ignored, ResolveNamed(qualified));
      (void)ignored;
    }
    return Status::OK();
  }

 private:
  // The node named `name`, created empty if new; `*created` says which.
  GoType* Intern(const std::string& name, bool* created) {
    auto [it, inserted] = schema_->types_.try_emplace(name);
    if (inserted) {
      it->second = std::make_unique<GoType>();
      it->second->name = name;
    }
    *created = inserted;
    return it->second.get();
  }

  const GoType* Leaf(const std::string& name, GoKind kind) {
    bool created;
    GoType* t = Intern(name, &created);
    if (created) t->kind = kind;
    return t;
  }

  const GoType* Composite(const std::string& name, GoKind kind, const GoType* elem) {
    bool created;
    GoType* t = Intern(name, &created);
    if (created) {
      t->kind = kind;
      t->elem = elem;
    }
    return t;
  }

  Result<const GoType*> Resolve(std::string_view expr, std::string_view package) {
    if (expr == "bool") return Leaf("bool", GoKind::kBool);
    if (expr == "string") return Leaf("string", GoKind::kString);
    if (expr == "int" || expr == "int64") return Leaf(std::string(expr), GoKind::kInt);
    if (expr == "time.Duration") return Leaf("time.Duration", GoKind::kInt);
    if (expr == "any" || expr == "interface{}") return Leaf("interface {}", GoKind::kAny);
    if (expr == "struct{}") return Leaf("struct {}", GoKind::kStruct);
    if (expr == "[]byte" || expr == "[]uint8") return Leaf("[]uint8", GoKind::kBytes);
    if (expr.starts_with("[]")) {
      ZS_ASSIGN_OR_RETURN(const GoType* elem, Resolve(expr.substr(2), package));
      return Composite("[]" + elem->name, GoKind::kSlice, elem);
    }
    if (expr.starts_with("*")) {
      ZS_ASSIGN_OR_RETURN(const GoType* elem, Resolve(expr.substr(1), package));
      return Composite("*" + elem->name, GoKind::kPointer, elem);
    }
    if (expr.starts_with("map[")) {
      std::size_t depth = 0, close = std::string_view::npos;
      for (std::size_t i = 3; i < expr.size() && close == std::string_view::npos; ++i) {
        if (expr[i] == '[') ++depth;
        if (expr[i] == ']' && --depth == 0) close = i;
      }
      if (close == std::string_view::npos) return Malformed(expr);
      ZS_ASSIGN_OR_RETURN(const GoType* key, Resolve(expr.substr(4, close - 4), package));
      ZS_ASSIGN_OR_RETURN(const GoType* value, Resolve(expr.substr(close + 1), package));
      const std::string name = "map[" + key->name + "]" + value->name;
      // encoding/json also takes integer and TextMarshaler keys; no schema
      // here needs them.
      if (key->kind != GoKind::kString) return Leaf(name, GoKind::kUnsupported);
      return Composite(name, GoKind::kMap, value);
    }
    std::string qualified(expr);
    if (expr.find('.') == std::string_view::npos)
      qualified = std::string(package) + "." + qualified;
    if (declared_.count(qualified) != 0) return ResolveNamed(qualified);
    // Func types, channels, floats, other integer widths: not JSON data in
    // any schema this serves; refused only if a value of them is decoded.
    if (expr.find('.') == std::string_view::npos || expr.find('(') != std::string_view::npos) {
      return Leaf(std::string(expr), GoKind::kUnsupported);
    }
    return Status::InvalidArgument("types file: unknown type " + std::string(expr));
  }

  Status Malformed(std::string_view expr) {
    return Status::InvalidArgument("types file: malformed type " + std::string(expr));
  }

  Result<const GoType*> ResolveNamed(const std::string& qualified) {
    bool created;
    GoType* t = Intern(qualified, &created);
    if (!created) return t;  // done, or in progress (reached through a pointer)
    const json::Value& decl = *declared_.at(qualified);
    const std::string package(decl.StringOr("package"));
    if (decl.StringOr("kind") == "struct") {
      t->kind = GoKind::kStruct;
      in_progress_.insert(t);
      ZS_RETURN_IF_ERROR(BuildFields(decl, package, t));
      in_progress_.erase(t);
      return t;
    }
    const std::string_view underlying = decl.StringOr("underlying");
    if (underlying.empty())
      return Status::InvalidArgument("types file: " + qualified + " has no underlying type");
    ZS_ASSIGN_OR_RETURN(const GoType* u, Resolve(underlying, package));
    t->kind = u->kind;
    t->elem = u->elem;
    t->fields = u->fields;
    depths_[t] = depths_[u];
    return t;
  }

  // Flattens embedded structs into `t`'s fields and applies Go's dominance
  // rule: of fields sharing a JSON name, the shallowest alone survives.
  Status BuildFields(const json::Value& decl, const std::string& package, GoType* t) {
    const json::Value* fields = decl.Find("fields");
    if (fields == nullptr || !fields->is_array()) {
      return Status::InvalidArgument("types file: struct " + t->name + " has no fields array");
    }
    std::vector<GoField> all;
    std::vector<int> depth;
    for (const json::Value& f : fields->array()) {
      const std::string_view type_expr = f.StringOr("type");
      ZS_ASSIGN_OR_RETURN(const GoType* ft, Resolve(type_expr, package));
      const json::Value* embedded = f.Find("embedded");
      if (embedded != nullptr && embedded->is_bool() && embedded->as_bool()) {
        if (ft->kind != GoKind::kStruct || in_progress_.count(ft) != 0) {
          return Status::InvalidArgument("types file: " + t->name + " embeds " + ft->name +
                                         ", which is not a finished struct");
        }
        const std::vector<int>& inner = depths_[ft];
        for (std::size_t i = 0; i < ft->fields.size(); ++i) {
          all.push_back(ft->fields[i]);
          depth.push_back(inner[i] + 1);
        }
        continue;
      }
      const json::Value* omit = f.Find("omitempty");
      GoField field;
      field.json_name = std::string(f.StringOr("json"));
      field.omitempty = omit != nullptr && omit->is_bool() && omit->as_bool();
      field.type = ft;
      if (field.json_name.empty())
        return Status::InvalidArgument("types file: " + t->name +
                                       " has a field without a JSON name");
      all.push_back(std::move(field));
      depth.push_back(0);
    }
    std::vector<int>& kept_depths = depths_[t];
    for (std::size_t i = 0; i < all.size(); ++i) {
      bool hidden = false;
      for (std::size_t j = 0; j < all.size(); ++j) {
        if (i == j || all[i].json_name != all[j].json_name) continue;
        if (depth[j] == depth[i]) {
          return Status::InvalidArgument("types file: " + t->name + " has two fields named " +
                                         all[i].json_name + " at the same depth");
        }
        if (depth[j] < depth[i]) hidden = true;
      }
      if (hidden) continue;
      t->fields.push_back(all[i]);
      kept_depths.push_back(depth[i]);
    }
    return Status::OK();
  }

  GoSchema* schema_;
  std::map<std::string, const json::Value*> declared_;
  std::set<const GoType*> in_progress_;
  // Per struct, the embedding depth of each of its fields (0: its own).
  std::map<const GoType*, std::vector<int>> depths_;
};

Result<std::unique_ptr<GoSchema>> GoSchema::Parse(std::string_view types_json) {
  auto root = json::ParseJson(types_json);
  if (!root.ok()) return root.status().WithContext("types file");
  std::unique_ptr<GoSchema> schema(new GoSchema());
  GoSchemaBuilder builder(schema.get());
  ZS_RETURN_IF_ERROR(builder.Load(*root));
  return schema;
}

const GoType* GoSchema::Find(std::string_view qualified_name) const {
  auto it = types_.find(qualified_name);
  return it == types_.end() ? nullptr : it->second.get();
}

}  // namespace zs::internal
