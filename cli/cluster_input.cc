#include "cli/cluster_input.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <map>
#include <utility>

#include "json/json_reader.h"
#include "json/json_value.h"
#include "cli/common.h"
#include "kube/input.h"
#include "base/terminal_text.h"
#include "kube/kubectl_message.h"
#include "kube/package_secret.h"
#include "kube/secret.h"
#include "kube/subprocess.h"

namespace zs::tools {
namespace {

using json::Value;

// kubectl's stderr in a message: its last meaningful line (klog's lines
// dropped), not more of it than a terminal shows, and through the
// terminal-text filter (an escape sequence in it is shown, not run).
std::string StderrForMessage(const std::string& text) {
  constexpr std::size_t kMaxBytes = 2000;
  std::string s = LastKubectlErrorLine(text);
  if (s.size() > kMaxBytes) s = s.substr(0, kMaxBytes) + "...";
  return s.empty() ? "(no message)" : TerminalText(s, Layout::kValue);
}

// "kubectl get secrets -l X" for messages: the command without the flags
// every run shares.
std::string ShortCommand(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) {
    if (a == "-o") break;
    s += (s.empty() ? "" : " ") + a;
  }
  return s;
}

}  // namespace

std::string ClusterLabel(const ClusterOptions& options) {
  return "cluster (" +
         (options.context.empty() ? std::string("current context") : "context " + options.context) +
         ", namespace " + options.namespace_ + ")";
}

std::vector<std::vector<std::string>> KubectlCommands(const ClusterOptions& options) {
  const std::vector<std::string> what[] = {
      {"get", "secrets", "-l", std::string(kPackageLabel)},
      {"get", "secrets", "-l", std::string(kCompactPackageLabel)},
      {"get", "secret", std::string(kStateSecretName), "--ignore-not-found"},
  };
  std::vector<std::vector<std::string>> commands;
  for (const std::vector<std::string>& w : what) {
    if (w[1] == "secret" && !options.init_state) continue;
    std::vector<std::string> argv = {"kubectl"};
    argv.insert(argv.end(), w.begin(), w.end());
    argv.insert(argv.end(), {"-o", "json", "--namespace", options.namespace_,
                             "--request-timeout=" + std::to_string(options.timeout_seconds) + "s"});
    if (!options.context.empty()) argv.insert(argv.end(), {"--context", options.context});
    if (!options.kubeconfig.empty()) argv.insert(argv.end(), {"--kubeconfig", options.kubeconfig});
    commands.push_back(std::move(argv));
  }
  return commands;
}

Result<std::string> MergeKubectlOutputs(const std::vector<std::string>& outputs,
                                        const std::string& label) {
  json::ParseOptions parse;
  parse.max_bytes = CurrentReadLimits().max_bytes;
  parse.max_depth = CurrentReadLimits().max_depth;
  // By namespace and name: a Secret both selectors match is listed once.
  std::map<std::pair<std::string, std::string>, Value> secrets;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string what = label + ": kubectl output " + std::to_string(i + 1);
    if (outputs[i].find_first_not_of(" \t\r\n") == std::string::npos) continue;
    Result<Value> parsed = json::ParseJson(outputs[i], parse);
    if (!parsed.ok()) return WithLimitHint(parsed.status().WithContext(what));
    if (!parsed->is_object()) return Status::Corruption(what + ": not a JSON object");
    std::vector<Value> objects;
    if (Value* items = parsed->Find("items"); items != nullptr && items->is_array()) {
      objects = std::move(items->array());
    } else {
      objects.push_back(std::move(*parsed));
    }
    for (Value& o : objects) {
      if (!o.is_object() || o.StringOr("kind") != "Secret") {
        return Status::Corruption(what + ": holds something other than a Secret");
      }
      const Value* md = o.Find("metadata");
      std::pair<std::string, std::string> key{md ? std::string(md->StringOr("namespace")) : "",
                                              std::string(ObjectName(o))};
      secrets.emplace(std::move(key), std::move(o));
    }
  }
  std::vector<Value> items;  // in namespace and name order, as the map holds them
  for (auto& [key, secret] : secrets) items.push_back(std::move(secret));
  const Value list = Value::MakeObject({
      {"apiVersion", Value::String("v1")},
      {"items", Value::MakeArray(std::move(items))},
      {"kind", Value::String("List")},
      {"metadata", Value::MakeObject({{"resourceVersion", Value::String("")}})},
  });
  return WriteObject(list, TextFormat::kJson);
}

std::string KubeconfigInUse(const ClusterOptions& options) {
  if (!options.kubeconfig.empty()) return options.kubeconfig;
  if (const char* env = getenv("KUBECONFIG"); env != nullptr && *env != '\0') return env;
  const char* home = getenv("HOME");
  return (home != nullptr && *home != '\0' ? std::string(home) : std::string("~")) + "/.kube/config";
}

Result<std::string> FetchClusterSecrets(const ClusterOptions& options) {
  const std::string label = ClusterLabel(options);
  // What kubectl's own failures name: which kubeconfig it read.
  std::string run_label = label;
  run_label.insert(run_label.size() - 1, ", kubeconfig " + TerminalText(KubeconfigInUse(options)));
  std::vector<std::string> outputs;
  for (const std::vector<std::string>& argv : KubectlCommands(options)) {
    Result<ProcessResult> run =
        RunProcess(argv, CurrentReadLimits().max_bytes, 2000L * options.timeout_seconds);
    if (!run.ok() && run.status().code() == Status::Code::kNotFound) {
      return Status::NotFound(label + ": kubectl not found on PATH (--cluster runs kubectl; "
                              "or give the Secrets with -f FILE)");
    }
    if (!run.ok()) return run.status().WithContext(run_label);
    if (run->exit_code != 0) {
      const std::string how = run->exit_code >= 0 ? "exit " + std::to_string(run->exit_code)
                                                   : "signal " + std::to_string(run->signal);
      return Status::IOError(run_label + ": " + ShortCommand(argv) + " failed (" + how +
                             "): " + StderrForMessage(run->err));
    }
    outputs.push_back(std::move(run->out));
  }
  return MergeKubectlOutputs(outputs, label);
}

std::shared_ptr<ClusterOptions> AddClusterFlags(CLI::App* cmd, CLI::Option* files,
                                                bool init_state) {
  auto options = std::make_shared<ClusterOptions>();
  options->init_state = init_state;
  CLI::Option* cluster = cmd->add_flag(
      "--cluster", options->enabled,
      "Read the Secrets from the cluster with kubectl instead of a file");
  if (files != nullptr) cluster->excludes(files);
  cmd->add_option("-n,--namespace", options->namespace_, "With --cluster: the namespace")
      ->default_val("zarf")
      ->needs(cluster);
  cmd->add_option("--context", options->context, "With --cluster: the kubeconfig context")
      ->needs(cluster);
  cmd->add_option("--kubeconfig", options->kubeconfig, "With --cluster: the kubeconfig file")
      ->needs(cluster);
  return options;
}

bool UseClusterInput(const ClusterOptions& options, std::vector<std::string>* files,
                     std::ostream& err) {
  if (!options.enabled) return true;
  Result<std::string> list = FetchClusterSecrets(options);
  if (!list.ok()) {
    // The message holds kubectl's own lines, escaped (StderrForMessage).
    PrintError(err, list.status().message(), Layout::kTable);
    return false;
  }
  const std::string label = ClusterLabel(options);
  ProvideInput(label, std::move(*list));
  *files = {label};
  return true;
}

CommandStatus PrepareCommandInput(const ClusterOptions& options, std::vector<std::string>* files,
                                  std::string_view command) {
  if (!UseClusterInput(options, files, std::cerr)) return CommandStatus::FailureReported();
  return InputIsUsable(*files, command);
}

}  // namespace zs::tools
