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

// A JSON array of to_value(item) for each of `items`, in their order.
template <typename T, typename ToValue>
Value ArrayOf(const std::vector<T>& items, ToValue to_value) {
  Value a = Value::MakeArray();
  for (const T& item : items) a.array().push_back(to_value(item));
  return a;
}

Value Strings(const std::vector<std::string>& list) {
  return ArrayOf(list, [](const std::string& s) { return Value::String(s); });
}

Value Actions(const std::vector<engine::PruneAction>& actions) {
  return ArrayOf(actions, [](const engine::PruneAction& x) {
    return Value::MakeObject({{"phase", Value::String(x.phase)},
                              {"cmd", Value::String(x.cmd)},
                              {"description", Value::String(x.description)}});
  });
}

// An image of the plan: as written, normalized, and the packages listed
// under `why` (those that reference it, or keep it).
Value ImageJson(const std::string& image, const engine::ImageRef& ref, const char* why,
                const std::vector<std::string>& packages) {
  return Value::MakeObject({{"image", Value::String(image)},
                            {"normalized", Value::String(ref.String())},
                            {why, Strings(packages)}});
}

// The stable `-o json` form (documented in docs/cli.md).
Value PlanJson(const engine::PrunePlan& plan) {
  Value charts = ArrayOf(plan.charts, [](const auto& c) {
    return Value::MakeObject(
        {{"component", Value::String(c.component)}, {"charts", Strings(c.charts)}});
  });
  Value comps = ArrayOf(plan.components, [](const auto& c) {
    return Value::MakeObject({{"name", Value::String(c.name)},
                              {"charts", Strings(c.charts)},
                              {"actions", Actions(c.actions)},
                              {"onFailure", Actions(c.on_failure)}});
  });
  Value images = ArrayOf(plan.images, [](const engine::ImageToPrune& i) {
    return ImageJson(i.image, i.ref, "references", i.references);
  });
  Value kept = ArrayOf(plan.kept_images, [](const engine::ImageKept& k) {
    return ImageJson(k.image, k.ref, "keptBy", k.kept_by);
  });
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
    PrintError(err, statuses.status().WithContext("--db").message());
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
      PrintError(err, pkg.status().WithContext("--db: package " + s.package).message());
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
    PrintError(err, st.WithContext("--others: " + obj.label).message());
    unreadable->push_back(obj.label);
    ok = false;
  }
  return ok;
}

}  // namespace

CommandStatus RunPrunePlan(const PrunePlanOptions& o, std::ostream& out, std::ostream& err) {
  ZS_RETURN_IF_ERROR(CheckOutputFormat(o.output, kPlanFormats));
  if (o.deployed.empty() || o.remove == !o.new_package.empty()) {
    return Status::Usage(
        "give --deployed (or --cluster with --package) and exactly one of --new PACKAGE or "
        "--remove");
  }
  if (o.no_others && (!o.others.empty() || !o.db.empty())) {
    return Status::Usage("--no-others excludes --others and --db");
  }
  auto text = ReadInputText(o.deployed);
  Result<DeployedPackage> deployed =
      text.ok() ? ReadOnePackage(o.deployed, text->text(), o.package)
                : Result<DeployedPackage>(text.status());
  if (!deployed.ok()) return deployed.status().WithContext("--deployed");
  Value new_package;
  if (!o.remove) {
    auto v = ReadNewPackage(o.new_package);
    if (!v.ok()) return v.status().WithContext("--new");
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
      PrintError(err, input.status().WithContext("--others").message());
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
  if (!plan.ok()) return plan.status();
  if (o.output.structured()) {
    PrintStructured(PlanJson(*plan), o.output.format, out);
  } else {
    PrintPlan(*plan, o.output, out);
  }
  if (plan->image_pruning_refused) {
    PrintError(err, plan->image_pruning_refused->message());
    failed = true;
  }
  return CommandStatus::FailedIf(failed);
}

void RegisterPrune(CLI::App* app, CommandStatus* outcome) {
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
  plan->callback([o, cluster, outcome] {
    if (cluster->enabled) {
      if (o->package.empty()) {
        *outcome = Status::Usage(
            "prune plan --cluster needs --package NAME (the package to plan for)");
        return;
      }
      std::vector<std::string> files;
      if (!UseClusterInput(*cluster, &files, std::cerr)) {
        *outcome = CommandStatus::FailureReported();
        return;
      }
      o->deployed = files.at(0);
      o->others = files;
    }
    *outcome = RunPrunePlan(*o, std::cout, std::cerr);
  });
}

}  // namespace zs::tools
