#include "model/names.h"

#include <string>

#include "model/model.h"

namespace zs {
namespace {

bool LowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Quoted for an error message, so that spaces and empty names show. (Built
// piecewise: `"'" + std::string(s) + "'"` trips a GCC 12 -Wrestrict false
// positive at -O3.)
std::string Quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('\'');
  out.append(s);
  out.push_back('\'');
  return out;
}

// Why `label` is not a DNS-1123 label, or "" when it is one.
std::string Dns1123LabelProblem(std::string_view label) {
  if (label.empty()) return "is empty";
  for (char c : label) {
    if (!LowerAlnum(c) && c != '-') return "holds '" + std::string(1, c) + "'";
  }
  if (!LowerAlnum(label.front()) || !LowerAlnum(label.back())) {
    return "does not start and end with a lower-case letter or digit";
  }
  return "";
}

}  // namespace

Status CheckPackageName(std::string_view name) {
  bool ok = !name.empty() && LowerAlnum(name.front());
  for (char c : name) ok = ok && (LowerAlnum(c) || c == '-');
  if (ok) return Status::OK();
  return Status::InvalidArgument(
      "package name " + Quoted(name) +
      " breaks Zarf's package-name rule: lower-case letters, digits and '-' only, not starting "
      "with '-' (^[a-z0-9][a-z0-9-]*$)");
}

Status CheckNamespaceOverride(std::string_view ns) {
  if (ns.empty()) return Status::OK();
  std::string problem = Dns1123LabelProblem(ns);
  if (problem.empty() && ns.size() > kDns1123LabelMaxBytes) {
    problem = "is " + std::to_string(ns.size()) + " bytes long";
  }
  if (problem.empty()) return Status::OK();
  return Status::InvalidArgument(
      "NamespaceOverride " + Quoted(ns) + " " + problem +
      ": a namespace name is a DNS-1123 label (at most 63 lower-case letters, digits and '-', "
      "starting and ending with a letter or digit)");
}

Status CheckSecretName(std::string_view name) {
  std::string problem;
  if (name.size() > kDns1123SubdomainMaxBytes) {
    problem = "is " + std::to_string(name.size()) + " bytes long";
  }
  for (std::size_t start = 0; problem.empty() && start <= name.size();) {
    std::size_t dot = name.find('.', start);
    if (dot == std::string_view::npos) dot = name.size();
    const std::string label_problem = Dns1123LabelProblem(name.substr(start, dot - start));
    if (!label_problem.empty()) {
      problem = "has a part " + Quoted(name.substr(start, dot - start)) + " that " + label_problem;
    }
    start = dot + 1;
  }
  if (problem.empty()) return Status::OK();
  return Status::InvalidArgument(
      "Secret name " + Quoted(name) + " " + problem +
      ": Kubernetes requires a DNS-1123 subdomain (at most 253 bytes of lower-case letters, "
      "digits, '-' and '.', each part starting and ending with a letter or digit)");
}

Status CheckPackageNames(std::string_view name, std::string_view namespace_override) {
  if (Status s = CheckPackageName(name); !s.ok()) return s;
  if (Status s = CheckNamespaceOverride(namespace_override); !s.ok()) return s;
  const std::string secret = PackageSecretName(name, namespace_override);
  if (Status s = CheckSecretName(secret); !s.ok()) {
    return s.WithContext("package " + Quoted(name));
  }
  // The Secret carries the label package-deploy-info: <name>.
  if (name.size() > kLabelValueMaxBytes || !LowerAlnum(name.back())) {
    return Status::InvalidArgument(
        "package name " + Quoted(name) + " cannot be the value of the label package-deploy-info " +
        "on Secret " + Quoted(secret) +
        ": a label value is at most 63 bytes and ends with a letter or digit");
  }
  return Status::OK();
}

}  // namespace zs
