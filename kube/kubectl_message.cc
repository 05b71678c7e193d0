#include "kube/kubectl_message.h"

namespace zs::tools {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// `text` without leading and trailing spaces, tabs and carriage returns.
std::string_view Trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// Advances *at past `count` digits of `s`; false when they are not there.
bool Digits(std::string_view s, std::size_t* at, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i, ++*at) {
    if (*at >= s.size() || !IsDigit(s[*at])) return false;
  }
  return true;
}

bool Char(std::string_view s, std::size_t* at, char c) {
  if (*at >= s.size() || s[*at] != c) return false;
  ++*at;
  return true;
}

}  // namespace

std::string_view StripKlogHeader(std::string_view line, bool* was_klog) {
  *was_klog = false;
  // Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg
  std::size_t at = 1;
  if (line.empty() || std::string_view("IWEF").find(line[0]) == std::string_view::npos) {
    return line;
  }
  if (!Digits(line, &at, 4) || !Char(line, &at, ' ') || !Digits(line, &at, 2) ||
      !Char(line, &at, ':') || !Digits(line, &at, 2) || !Char(line, &at, ':') ||
      !Digits(line, &at, 2)) {
    return line;
  }
  if (Char(line, &at, '.')) {
    while (at < line.size() && IsDigit(line[at])) ++at;
  }
  while (at < line.size() && line[at] == ' ') ++at;
  const std::size_t thread = at;
  while (at < line.size() && IsDigit(line[at])) ++at;
  if (at == thread || !Char(line, &at, ' ')) return line;
  const std::size_t close = line.find("] ", at);
  if (close == std::string_view::npos || line.substr(at, close - at).find(':') == std::string_view::npos) {
    return line;
  }
  *was_klog = true;
  return line.substr(close + 2);
}

std::string LastKubectlErrorLine(std::string_view text) {
  std::string_view last_plain, last_klog;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = Trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty()) continue;
    bool klog = false;
    const std::string_view message = Trim(StripKlogHeader(line, &klog));
    if (message.empty()) continue;
    (klog ? last_klog : last_plain) = message;
  }
  return std::string(last_plain.empty() ? last_klog : last_plain);
}

}  // namespace zs::tools
