// What to show of kubectl's standard error when it fails: its last
// meaningful line. kubectl (client-go) logs through klog, so one failure
// often prints several lines such as
//   E1205 20:51:00.123456   12345 memcache.go:265] "Unhandled Error" err="..."
// before its own one-line summary ("The connection to the server ... was
// refused - did you specify the right host or port?").
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_KUBE_KUBECTL_MESSAGE_H_
#define ZARF_STATE_KUBE_KUBECTL_MESSAGE_H_

#include <string>
#include <string_view>

namespace zs::tools {

// `line` without a klog header (severity letter I/W/E/F, MMDD, time,
// thread id, file:line and "] "), or `line` itself when it has none.
// Sets *was_klog to whether it had one.
std::string_view StripKlogHeader(std::string_view line, bool* was_klog);

// The last line of `text` that is not a klog line, trimmed of surrounding
// blanks; when every non-blank line is a klog line, the last one without its
// header. "" when `text` holds only blanks. Control characters are kept (the
// caller escapes them for the terminal).
std::string LastKubectlErrorLine(std::string_view text);

}  // namespace zs::tools

#endif  // ZARF_STATE_KUBE_KUBECTL_MESSAGE_H_
