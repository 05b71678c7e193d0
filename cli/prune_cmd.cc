#include "cli/prune_cmd.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>

#include "json/go_json.h"
#include "json/json_reader.h"
#include "model/model.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "yaml/yaml.h"
#include "engine/prune.h"
#include "cli/cluster_input.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/output.h"
#include "base/terminal_text.h"

namespace zs::tools {
namespace {

using json::Value;

const std::vector<std::string> kPlanFormats = {"table", "wide", "json", "yaml"};

// The one package state in `path` (a Secret, a one-item List, or a bare
// DeployedPackage payload); with `name`, the package of that name (or
// Secret name, for an override) among several, as in a whole dump.
Result<DeployedPackage> ReadOnePackage(const std::string& path, std::string_view text,
                                       const std::string& name = "") {
  ZS_ASSIGN_OR_RETURN(Input input, ReadInput(text, path, CurrentReadLimits()));
  std::vector<DeployedPackage> packages;
  std::string seen;
  for (const InputObject& obj : input.objects) {
    if (obj.payload_kind != PayloadKind::kPackage && obj.error.ok()) continue;
    if (!obj.error.ok()) return obj.error.WithContext(obj.label);
    auto pkg = DecodePackagePayload(obj.payload);
    if (!pkg.ok()) return pkg.status().WithContext(obj.label);
    const std::string secret = obj.is_secret ? std::string(ObjectName(obj.object)) : "";
    // The package's name, or its Secret's (an override's own Secret).
    if (!name.empty() && pkg->name != name && secret != name &&
        secret != std::string(kPackageSecretPrefix) + name) {
      seen += (seen.empty() ? "" : ", ") + (secret.empty() ? pkg->name : secret);
      continue;
    }
    packages.push_back(std::move(pkg).value());
  }
  if (packages.size() != 1) {
    if (!name.empty() && packages.empty()) {
      return Status::NotFound(path + ": no package " + name + " (found: " +
                              (seen.empty() ? std::string("none") : seen) + ")");
    }
    return Status::InvalidArgument(path + ": expected one package Secret, found " +
                                   std::to_string(packages.size()) +
                                   (name.empty() ? "; pick one with --package NAME" : ""));
  }
  return std::move(packages[0]);
}

// The Zarf registry host the init state (a `zarf-state` payload) names, or "".
std::string RegistryOfInitState(const std::string& payload) {
  Result<Value> state = json::ParseJson(payload);
  if (!state.ok()) return "";
  const Value* info = state->Find("registryInfo");
  return info != nullptr && info->is_object() ? std::string(info->StringOr("address")) : "";
}

// A ZarfPackage definition, or the definition stored in a package Secret /
// DeployedPackage (its `data`).
Result<Value> ReadNewPackage(const std::string& path) {
  ZS_ASSIGN_OR_RETURN(std::string text, ReadFileOrStdin(path));
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  Value doc;
  if (first != std::string::npos &&
      (text[first] == '{' || text[first] == '[')) {
    auto v = json::ParseJson(text);
    if (!v.ok()) return v.status().WithContext(path);
    doc = std::move(v).value();
  } else {
    auto docs = yaml::ParseDocuments(text);
    if (!docs.ok()) return docs.status().WithContext(path);
    if (docs->empty())
      return Status::InvalidArgument(path + ": empty document");
    doc = std::move((*docs)[0]);
  }
  const std::string_view kind =
      doc.is_object() ? doc.StringOr("kind") : std::string_view();
  const bool is_state =
      kind == "Secret" || kind == "List" || kind == "SecretList" ||
      (doc.is_object() && doc.Find("deployedComponents") != nullptr);
  if (!is_state) return doc;
  ZS_ASSIGN_OR_RETURN(DeployedPackage pkg, ReadOnePackage(path, text));
  return std::move(pkg.data);
}

Value Strings(const std::vector<std::string>& list) {
  Value a = Value::MakeArray();
  for (const std::string& s : list) a.array().push_back(Value::String(s));
  return a;
}

Value Actions(const std::vector<engine::PruneAction>& actions) {
  Value a = Value::MakeArray();
  for (const engine::PruneAction& x : actions) {
    a.array().push_back(
        Value::MakeObject({{"phase", Value::String(x.phase)},
                           {"cmd", Value::String(x.cmd)},
                           {"description", Value::String(x.description)}}));
  }
  return a;
}

// The stable `-o json` form (documented in docs/cli.md).
Value PlanJson(const engine::PrunePlan& plan) {
  Value charts = Value::MakeArray();
  for (const auto& c : plan.charts) {
    charts.array().push_back(
        Value::MakeObject({{"component", Value::String(c.component)},
                           {"charts", Strings(c.charts)}}));
  }
  Value comps = Value::MakeArray();
  for (const auto& c : plan.components) {
    comps.array().push_back(
        Value::MakeObject({{"name", Value::String(c.name)},
                           {"charts", Strings(c.charts)},
                           {"actions", Actions(c.actions)},
                           {"onFailure", Actions(c.on_failure)}}));
  }
  Value images = Value::MakeArray();
  for (const auto& i : plan.images) {
    images.array().push_back(
        Value::MakeObject({{"image", Value::String(i.image)},
                           {"normalized", Value::String(i.ref.String())},
                           {"references", Strings(i.references)}}));
  }
  Value kept = Value::MakeArray();
  for (const auto& k : plan.kept_images) {
    kept.array().push_back(
        Value::MakeObject({{"image", Value::String(k.image)},
                           {"normalized", Value::String(k.ref.String())},
                           {"keptBy", Strings(k.kept_by)}}));
  }
  return Value::MakeObject(
      {{"package", Value::String(plan.package)},
       {"operation", Value::String(plan.is_remove ? "remove" : "upgrade")},
       {"charts", std::move(charts)},
       {"components", std::move(comps)},
       {"imagePruning",
        Value::String(plan.image_pruning_refused ? "refused" : "planned")},
       {"imagePruningError",
        plan.image_pruning_refused
            ? Value::String(std::string(plan.image_pruning_refused->message()))
            : Value::Null()},
       {"images", std::move(images)},
       {"keptImages", std::move(kept)},
       {"warnings", Strings(plan.warnings)}});
}

std::string Joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

// An action as one row: what runs (its cmd, or its description when it has
// none) and, beside a cmd, its description.
void AddAction(Table* table, const engine::PruneAction& a, std::string phase) {
  table->AddRow({"run", std::move(phase), a.cmd.empty() ? a.description : a.cmd,
                 a.cmd.empty() ? "-" : a.description, "-"});
}

// The plan as one table, in the order Zarf would act: charts uninstalled
// from components that stay; each component removed, with its onRemove
// actions and charts in the order they run; images deleted from the
// registry (as the references Zarf pushed); images kept for other packages.
// -o wide adds each image's normalized reference.
// Above it the title, below it the refusal, warnings and the reminder that
// nothing was done (all three left out with --no-headers).
void PrintPlan(const engine::PrunePlan& plan, const OutputOptions& output, std::ostream& out) {
  if (!output.no_headers) {
    out << "Package \"" << TerminalText(plan.package) << "\": "
        << (plan.is_remove ? "zarf package remove --prune" : "zarf package deploy --prune")
        << " would make these changes:\n";
  }
  Table table({{"ACTION"}, {"KIND"}, {"NAME"}, {"DETAIL"}, {"NORMALIZED", true}});
  for (const auto& c : plan.charts) {
    for (const std::string& chart : c.charts) {
      table.AddRow({"uninstall", "chart", chart, "component " + c.component + " stays", "-"});
    }
  }
  for (const auto& c : plan.components) {
    table.AddRow({"remove", "component", c.name, "-", "-"});
    for (const auto& a : c.actions) {
      if (a.phase == "before") AddAction(&table, a, "onRemove.before");
    }
    for (const std::string& chart : c.charts) {
      table.AddRow({"uninstall", "chart", chart, "component " + c.name, "-"});
    }
    for (const auto& a : c.actions) {
      if (a.phase != "before") AddAction(&table, a, "onRemove." + a.phase);
    }
    for (const auto& a : c.on_failure) AddAction(&table, a, "onRemove.onFailure");
  }
  for (const auto& i : plan.images) {
    table.AddRow({"delete", "image", i.image, "as " + Joined(i.references), i.ref.String()});
  }
  for (const auto& k : plan.kept_images) {
    table.AddRow({"keep", "image", k.image, "used by " + Joined(k.kept_by), k.ref.String()});
  }
  if (table.rows() > 0) table.Print(output, out);
  if (output.no_headers) return;
  if (plan.image_pruning_refused) {
    out << "Images: NOT pruned: " << TerminalText(plan.image_pruning_refused->message()) << "\n";
  }
  for (const std::string& w : plan.warnings) out << "warning: " << TerminalText(w) << "\n";
  if (table.rows() == 0) out << "Nothing to prune.\n";
  out << "This is a plan only: nothing was deleted.\n";
}

// Every package of the local cache not marked removed, as --others. What
// cannot be read goes to `unreadable` (so image pruning is refused).
bool AddCachedOthers(const std::string& db, std::vector<DeployedPackage>* others,
                     std::vector<std::string>* unreadable, std::ostream& err) {
  auto cache = OpenCacheReadOnly(db);
  auto statuses = cache.ok() ? (*cache)->Statuses()
                             : Result<std::vector<engine::PackageStatus>>(cache.status());
  if (!statuses.ok()) {
    err << "error: --db: " << TerminalText(statuses.status().message()) << "\n";
    unreadable->push_back("the cache " + db);
    return false;
  }
  bool ok = true;
  for (const engine::PackageStatus& s : *statuses) {
    if (s.removed) continue;
    auto payload = (*cache)->SnapshotPayload(s.package);
    auto pkg = payload.ok() ? DecodePackagePayload(*payload)
                            : Result<DeployedPackage>(payload.status());
    if (!pkg.ok()) {
      err << "error: --db: package " << TerminalText(s.package) << ": " << TerminalText(pkg.status().message()) << "\n";
      unreadable->push_back("package " + s.package + " in the cache");
      ok = false;
      continue;
    }
    others->push_back(std::move(pkg).value());
  }
  return ok;
}

// The packages of one --others input into `others`, and the registry host
// of an init state in it into `*registry` (when not null and still "").
// What cannot be decoded goes to `unreadable`, named on `err`; false then.
bool AddOthersOf(const Input& input, std::vector<DeployedPackage>* others, std::string* registry,
                 std::vector<std::string>* unreadable, std::ostream& err) {
  bool ok = true;
  for (const InputObject& obj : input.objects) {
    Status st = obj.error;
    if (st.ok() && obj.payload_kind != PayloadKind::kPackage) {
      // zarf-state: the registry the images were pushed to.
      if (registry != nullptr && registry->empty()) *registry = RegistryOfInitState(obj.payload);
      continue;
    }
    if (st.ok()) {
      auto pkg = DecodePackagePayload(obj.payload);
      if (pkg.ok()) {
        others->push_back(std::move(pkg).value());
        continue;
      }
      st = pkg.status();
    }
    err << "error: --others: " << TerminalText(obj.label) << ": " << TerminalText(st.message()) << "\n";
    unreadable->push_back(obj.label);
    ok = false;
  }
  return ok;
}

}  // namespace

int RunPrunePlan(const PrunePlanOptions& o, std::ostream& out, std::ostream& err) {
  if (!OutputFormatIsOneOf(o.output, kPlanFormats, err)) return kExitUsage;
  if (o.deployed.empty() || o.remove == !o.new_package.empty()) {
    err << "error: give --deployed (or --cluster with --package) and exactly one of --new "
           "PACKAGE or --remove\n";
    return kExitUsage;
  }
  if (o.no_others && (!o.others.empty() || !o.db.empty())) {
    err << "error: --no-others excludes --others and --db\n";
    return kExitUsage;
  }
  auto text = ReadInputText(o.deployed);
  Result<DeployedPackage> deployed =
      text.ok() ? ReadOnePackage(o.deployed, text->text(), o.package)
                : Result<DeployedPackage>(text.status());
  if (!deployed.ok()) {
    err << "error: --deployed: " << TerminalText(deployed.status().message()) << "\n";
    return kExitSomeFailed;
  }
  Value new_package;
  if (!o.remove) {
    auto v = ReadNewPackage(o.new_package);
    if (!v.ok()) {
      err << "error: --new: " << TerminalText(v.status().message()) << "\n";
      return kExitSomeFailed;
    }
    new_package = std::move(v).value();
  }

  bool failed = false;
  std::vector<DeployedPackage> others;
  std::vector<std::string> unreadable = o.unreadable;
  std::string registry = o.registry;  // else the init state's, when --others has it
  if (o.others.empty() && o.db.empty() && !o.no_others) {
    unreadable.push_back(
        "the other deployed packages (no --others given; pass the List of "
        "package Secrets, or --no-others if there are none)");
  }
  for (const std::string& file : o.others) {
    // The dump --deployed came from (--cluster, or `-` twice) is read once.
    std::optional<Result<InputText>> own;
    if (file != o.deployed || !text.ok()) own.emplace(ReadInputText(file));
    const Status read = own ? own->status() : Status();
    auto input = read.ok() ? ReadInput(own ? (*own)->text() : text->text(), file, CurrentReadLimits())
                           : Result<Input>(read);
    if (!input.ok()) {
      err << "error: --others: " << TerminalText(input.status().message()) << "\n";
      unreadable.push_back("file " + file);
      failed = true;
      continue;
    }
    failed |= !AddOthersOf(*input, &others, o.registry.empty() ? &registry : nullptr,
                           &unreadable, err);
  }

  if (!o.db.empty()) failed |= !AddCachedOthers(o.db, &others, &unreadable, err);

  engine::PruneOptions options;
  options.registry = registry;
  auto plan = o.remove
                  ? engine::PlanRemove(*deployed, others, unreadable, options)
                  : engine::PlanUpgrade(*deployed, new_package, others,
                                        unreadable, options);
  if (!plan.ok()) {
    err << "error: " << TerminalText(plan.status().message()) << "\n";
    return kExitSomeFailed;
  }
  if (o.output.structured()) {
    PrintStructured(PlanJson(*plan), o.output.format, out);
  } else {
    PrintPlan(*plan, o.output, out);
  }
  if (plan->image_pruning_refused) {
    err << "error: " << plan->image_pruning_refused->message() << "\n";
    failed = true;
  }
  return failed ? kExitSomeFailed : kExitOk;
}

void RegisterPrune(CLI::App* app, int* exit_code) {
  CLI::App* prune = app->add_subcommand(
      "prune", "Plan what Zarf's --prune would remove (never executes it)");
  prune->require_subcommand(1);
  auto o = std::make_shared<PrunePlanOptions>();
  CLI::App* plan =
      prune->add_subcommand("plan",
                            "Charts, components and images that deploy --prune "
                            "(with --new) or remove --prune (with "
                            "--remove) would delete. Reads files, or the cluster "
                            "with --cluster (through kubectl, read only); never "
                            "contacts a registry.");
  CLI::Option* deployed =
      plan->add_option("--deployed", o->deployed,
                       "The deployed package's Secret (JSON/YAML, or bare DeployedPackage "
                       "JSON), or a dump with --package (required without --cluster)");
  auto* new_opt =
      plan->add_option("--new", o->new_package,
                       "The package about to be deployed: a ZarfPackage "
                       "definition (JSON or YAML) or a package Secret");
  auto* remove_opt = plan->add_flag(
      "--remove", o->remove,
      "Plan `zarf package remove --prune` instead of an upgrade");
  new_opt->excludes(remove_opt);
  CLI::Option* others = plan->add_option("--others", o->others,
                   "The other deployed packages' Secrets, e.g. `kubectl get "
                   "secrets -A -l package-deploy-info -o json` "
                   "(repeatable; the deployed package itself is skipped)");
  plan->add_option("--db", o->db,
                   "The local cache: every package in it (not marked removed) "
                   "counts as another deployed package");
  plan->add_flag("--no-others", o->no_others,
                 "Assert that no other package is deployed (otherwise image "
                 "pruning needs --others)");
  plan->add_option("--unreadable", o->unreadable,
                   "Something the caller could not read, so the --others set "
                   "is incomplete: e.g. "
                   "\"secret zarf/zarf-package-x\" (get denied) or \"namespace "
                   "zarf\" (list denied). Repeatable. "
                   "Any of them refuses image pruning (exit 1); charts and "
                   "components are still planned");
  plan->add_option("--registry", o->registry,
                   "Prefix image references with this Zarf registry host (e.g. "
                   "127.0.0.1:31999; default: the init state's, when --others holds it)");
  plan->add_option("--package", o->package,
                   "The package to plan for when --deployed (or --cluster) holds several");
  AddOutputOptions(plan, &o->output, kPlanFormats);
  // --cluster: --deployed and --others are the cluster's package Secrets and
  // init state, fetched once through kubectl.
  auto cluster = AddClusterFlags(plan, deployed, /*init_state=*/true);
  plan->get_option("--cluster")->excludes(others);
  plan->callback([o, cluster, exit_code] {
    if (cluster->enabled) {
      if (o->package.empty()) {
        std::cerr << "error: prune plan --cluster needs --package NAME (the package to plan "
                     "for)\n";
        *exit_code = kExitUsage;
        return;
      }
      std::vector<std::string> files;
      if (!UseClusterInput(*cluster, &files, std::cerr)) {
        *exit_code = kExitSomeFailed;
        return;
      }
      o->deployed = files.at(0);
      o->others = files;
    }
    *exit_code = RunPrunePlan(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
