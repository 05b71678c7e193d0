#include "engine/zarf_selection.h"

#include <algorithm>
#include <optional>

namespace zs::engine {
namespace {

constexpr std::string_view kDeployFilter = "error applying filter *filters.deploymentFilter: ";
constexpr std::string_view kSelectFilter = "error applying filter *filters.selectStateFilter: ";

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool BoolField(const json::Value& v, std::string_view key) {
  const json::Value* f = v.Find(key);
  return f != nullptr && f->is_bool() && f->as_bool();
}

// The components left after filters.ByLocalOS, as indexes into `package`.
std::vector<const json::Value*> LocalComponents(const json::Value& package,
                                                std::string_view local_os,
                                                std::vector<std::size_t>* indexes) {
  std::vector<const json::Value*> out;
  const json::Value* comps = package.Find("components");
  if (comps == nullptr || !comps->is_array()) return out;
  for (std::size_t i = 0; i < comps->array().size(); ++i) {
    const json::Value& c = comps->array()[i];
    const json::Value* only = c.Find("only");
    const std::string_view os = only != nullptr ? only->StringOr("localOS") : std::string_view();
    if (!os.empty() && os != local_os) continue;
    out.push_back(&c);
    indexes->push_back(i);
  }
  return out;
}

enum class State { kUnknown, kIncluded, kExcluded };

// includedOrExcluded: exclusions first; sets *matched to the request entry
// that decided.
Result<State> IncludedOrExcluded(std::string_view name, const std::vector<std::string>& requests,
                                 std::string* matched) {
  for (const std::string& r : requests) {
    if (!r.starts_with('-')) continue;
    ZS_ASSIGN_OR_RETURN(bool hit, GoPathMatch(std::string_view(r).substr(1), name));
    if (hit) {
      *matched = r;
      return State::kExcluded;
    }
  }
  for (const std::string& r : requests) {
    ZS_ASSIGN_OR_RETURN(bool hit, GoPathMatch(r, name));
    if (hit) {
      *matched = r;
      return State::kIncluded;
    }
  }
  matched->clear();
  return State::kUnknown;
}

// Levenshtein distance over Unicode code points (bytes of invalid UTF-8
// count one each).
std::size_t Distance(std::string_view a, std::string_view b) {
  auto runes = [](std::string_view s) {
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < s.size();) {
      std::size_t n = 1;
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0xF0) n = 4; else if (c >= 0xE0) n = 3; else if (c >= 0xC0) n = 2;
      n = std::min(n, s.size() - i);
      out.push_back(s.substr(i, n));
      i += n;
    }
    return out;
  };
  const auto x = runes(a), y = runes(b);
  std::vector<std::size_t> row(y.size() + 1);
  for (std::size_t j = 0; j <= y.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= x.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= y.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (x[i - 1] == y[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[y.size()];
}

struct Member {
  std::size_t idx;  // into the local components
  const json::Value* c;
};

struct Groups {
  std::vector<std::string> order;
  std::vector<std::vector<Member>> members;  // parallel to order
};

Groups GroupComponents(const std::vector<const json::Value*>& comps) {
  Groups g;
  for (std::size_t i = 0; i < comps.size(); ++i) {
    std::string key(comps[i]->StringOr("group"));
    if (key.empty()) key = std::string(comps[i]->StringOr("name"));
    auto it = std::find(g.order.begin(), g.order.end(), key);
    if (it == g.order.end()) {
      g.order.push_back(key);
      g.members.emplace_back();
      it = g.order.end() - 1;
    }
    g.members[static_cast<std::size_t>(it - g.order.begin())].push_back({i, comps[i]});
  }
  return g;
}

Status Fail(SelectionError* kind, SelectionError k, std::string_view prefix, std::string what) {
  if (kind != nullptr) *kind = k;
  return Status::InvalidArgument(std::string(prefix) + what);
}

std::string NamesOf(const std::vector<Member>& members, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i != 0) out += ", ";
    out += members[i].c->StringOr("name");
  }
  return out;
}

// The deployment filter with a request (deploy.go's isPartial branch).
Result<std::vector<std::size_t>> SelectRequested(const std::vector<const json::Value*>& comps,
                                                 const Groups& groups,
                                                 const std::vector<std::string>& requests,
                                                 SelectionError* kind) {
  std::vector<std::size_t> selected;
  std::vector<std::string> matched_requests;
  auto mark = [&](const std::string& r) {
    if (std::find(matched_requests.begin(), matched_requests.end(), r) == matched_requests.end()) {
      matched_requests.push_back(r);
    }
  };
  for (const std::vector<Member>& group : groups.members) {
    std::optional<Member> group_default, group_selected;
    for (const Member& m : group) {
      std::string matched;
      auto state = IncludedOrExcluded(m.c->StringOr("name"), requests, &matched);
      if (!state.ok()) {
        return Fail(kind, SelectionError::kBadPattern, kDeployFilter,
                    std::string(state.status().message()));
      }
      State s = *state;
      if (!BoolField(*m.c, "required")) {
        if (s == State::kExcluded) {
          mark(matched);
          continue;
        }
        if (s == State::kUnknown && BoolField(*m.c, "default") && !group_default) group_default = m;
      } else {
        s = State::kIncluded;
      }
      if (s != State::kIncluded) continue;
      mark(matched);
      if (group_selected) {
        return Fail(kind, SelectionError::kMultipleSameGroup, kDeployFilter,
                    "cannot specify multiple components from the same group: group: " +
                        std::string(m.c->StringOr("group")) + " selected: " +
                        std::string(group_selected->c->StringOr("name")) + ", " +
                        std::string(m.c->StringOr("name")));
      }
      selected.push_back(m.idx);
      group_selected = m;
    }
    if (!group_selected && group_default) {
      selected.push_back(group_default->idx);
    } else if (group.size() > 1 && !group_selected && !group_default) {
      return Fail(kind, SelectionError::kNoDefaultOrSelection, kDeployFilter,
                  "no default or selected component found: choose from " +
                      NamesOf(group, group.size()));
    }
  }
  for (const std::string& r : requests) {
    if (std::find(matched_requests.begin(), matched_requests.end(), r) != matched_requests.end()) {
      continue;
    }
    std::string close;
    for (const json::Value* c : comps) {
      if (Distance(c->StringOr("name"), r) > 5) continue;
      close += (close.empty() ? "" : ", ") + std::string(c->StringOr("name"));
    }
    return Fail(kind, SelectionError::kNotFound, kDeployFilter,
                "no compatible components found: " + r + ", suggestions (" + close + ")");
  }
  return selected;
}

// The deployment filter without a request, non-interactive.
Result<std::vector<std::size_t>> SelectDefaults(const Groups& groups, SelectionError* kind) {
  std::vector<std::size_t> selected;
  for (const std::vector<Member>& group : groups.members) {
    if (group.size() > 1) {
      std::size_t i = 0;
      while (i < group.size() && !BoolField(*group[i].c, "default")) ++i;
      if (i == group.size()) {
        return Fail(kind, SelectionError::kNoDefaultOrSelection, kDeployFilter,
                    "no default or selected component found: choose from " +
                        NamesOf(group, group.size()));
      }
      selected.push_back(group[i].idx);
    } else if (BoolField(*group[0].c, "required") || BoolField(*group[0].c, "default")) {
      selected.push_back(group[0].idx);
    }
  }
  return selected;
}

}  // namespace

std::vector<std::string> SplitRequestedComponents(std::string_view requested) {
  std::vector<std::string> out;
  if (requested.empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = requested.find(',', start);
    std::string_view entry = requested.substr(start, comma == std::string_view::npos
                                                         ? std::string_view::npos
                                                         : comma - start);
    while (!entry.empty() && IsSpace(entry.front())) entry.remove_prefix(1);
    while (!entry.empty() && IsSpace(entry.back())) entry.remove_suffix(1);
    std::string lowered(entry);
    for (char& c : lowered) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    out.push_back(std::move(lowered));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

Result<std::vector<std::size_t>> SelectForDeploy(const json::Value& package,
                                                 std::string_view requested,
                                                 SelectionError* kind,
                                                 std::string_view local_os) {
  if (kind != nullptr) *kind = SelectionError::kNone;
  std::vector<std::size_t> local;
  const std::vector<const json::Value*> comps = LocalComponents(package, local_os, &local);
  const Groups groups = GroupComponents(comps);
  const std::vector<std::string> requests = SplitRequestedComponents(requested);
  const bool partial = !requests.empty() && !requests[0].empty();
  ZS_ASSIGN_OR_RETURN(std::vector<std::size_t> picked,
                      partial ? SelectRequested(comps, groups, requests, kind)
                              : SelectDefaults(groups, kind));
  // Zarf keeps the filter's order (groups at their first member's place);
  // RetainComponents then stores them in that order.
  for (std::size_t& i : picked) i = local[i];
  return picked;
}

Result<std::vector<std::size_t>> SelectForRemove(const json::Value& package,
                                                 std::string_view requested,
                                                 std::string_view local_os) {
  std::vector<std::size_t> local;
  const std::vector<const json::Value*> comps = LocalComponents(package, local_os, &local);
  const std::vector<std::string> requests = SplitRequestedComponents(requested);
  const bool partial = !requests.empty() && !requests[0].empty();
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < comps.size(); ++i) {
    if (partial) {
      std::string matched;
      auto state = IncludedOrExcluded(comps[i]->StringOr("name"), requests, &matched);
      if (!state.ok()) {
        return Status::InvalidArgument(std::string(kSelectFilter) +
                                       std::string(state.status().message()));
      }
      if (*state != State::kIncluded) continue;
    }
    out.push_back(local[i]);
  }
  return out;
}

json::Value RetainComponents(const json::Value& package, const std::vector<std::size_t>& indexes) {
  json::Value out = package;
  json::Value* comps = out.Find("components");
  if (comps == nullptr || !comps->is_array()) return out;
  json::Value kept = json::Value::MakeArray();
  for (std::size_t i : indexes) {
    if (i < comps->array().size()) kept.array().push_back(comps->array()[i]);
  }
  *comps = std::move(kept);
  return out;
}

bool RequiresCluster(const json::Value& component) {
  for (std::string_view key : {"images", "imageArchives", "charts", "manifests", "repos",
                               "dataInjections", "healthChecks"}) {
    const json::Value* v = component.Find(key);
    if (v != nullptr && v->is_array() && !v->array().empty()) return true;
  }
  return false;
}

}  // namespace zs::engine
