#include "base/memory_budget.h"

#include <string>

namespace zs {

Status MemoryBudget::Exceeded(std::string_view what) const {
  return Status::InvalidArgument(
      std::string(what) + " needs more than " + std::to_string(limit_) + " bytes of memory, " +
      std::string(kOverMemoryBudget) + " of a " + std::to_string(input_bytes_) + "-byte input (" +
      std::to_string(kMemoryBudgetFloor >> 20) + " MiB + " +
      std::to_string(kMemoryBudgetPerInputByte) + " per input byte, at most " +
      std::to_string(kMemoryBudgetCeiling >> 20) + " MiB)");
}

}  // namespace zs
