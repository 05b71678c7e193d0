#include "base/status.h"

namespace zs {

Status::Status(Code code, std::string_view msg)
    : rep_(std::make_unique<Rep>(Rep{code, std::string(msg)})) {
  assert(code != Code::kOk);
}

Status::Status(const Status& other)
    : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) {
    rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
  }
  return *this;
}

std::string Status::ToString() const {
  if (!rep_) return "OK";
  const char* name = "Unknown";
  switch (rep_->code) {
    case Code::kOk: name = "OK"; break;
    case Code::kNotFound: name = "NotFound"; break;
    case Code::kCorruption: name = "Corruption"; break;
    case Code::kInvalidArgument: name = "InvalidArgument"; break;
    case Code::kIOError: name = "IOError"; break;
    case Code::kNotSupported: name = "NotSupported"; break;
    case Code::kTooLarge: name = "TooLarge"; break;
    case Code::kUsage: name = "Usage"; break;
  }
  return std::string(name) + ": " + rep_->message;
}

Status Status::WithContext(std::string_view context) const {
  if (!rep_) return Status();
  std::string msg(context);
  msg += ": ";
  msg += rep_->message;
  return Status(rep_->code, msg);
}

}  // namespace zs
