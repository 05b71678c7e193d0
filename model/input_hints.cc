#include "model/input_hints.h"

#include <cctype>

namespace zs {
namespace {

std::string_view FirstLine(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

// kubectl's header row: upper-case column names separated by runs of
// spaces, the first NAME (or NAMESPACE with -A), with at least one more.
bool IsKubectlTableHeader(std::string_view line) {
  if (!line.starts_with("NAME ") && !line.starts_with("NAMESPACE ")) return false;
  if (line.find("   ") == std::string_view::npos) return false;
  for (char c : line) {
    if (!(c >= 'A' && c <= 'Z') && c != ' ' && c != '-' && c != '(' && c != ')' && c != '\r') {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string MistakenInputHint(std::string_view text) {
  const std::string_view line = FirstLine(text);
  if (IsKubectlTableHeader(line)) {
    return "this is kubectl's table, not the Secrets themselves: add -o json "
           "(kubectl get secrets -n zarf -o json), or let --cluster run kubectl";
  }
  if (StartsWithNoCase(line, "<!doctype html") || StartsWithNoCase(line, "<html")) {
    return "this is an HTML page, not Secrets as kubectl prints them (JSON or YAML): "
           "give the output of kubectl get secrets -n zarf -o json";
  }
  return "";
}

}  // namespace zs
