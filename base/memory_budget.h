// The one memory budget of every reader: what decoding an input may build,
// in bytes, charged as it is built, by what it produces rather than by what
// the input spells. A YAML alias costs every byte it repeats, each document
// of a stream costs what holding it costs, a compact message costs its
// model struct, a log chunk costs its decompressed payload and its entries.
//
// An input of N bytes may build at most kMemoryBudgetFloor +
// kMemoryBudgetPerInputByte x N bytes, and never more than
// kMemoryBudgetCeiling (docs/reliability.md#memory-budget). The costs below
// are what the decoded values take in memory (a json::Value is 40 bytes, a
// member 72, a model Component several hundred), rounded up, so that the
// process stays under 64 MiB + 8 x the input size whatever the input.
//
// Thread safety: a MemoryBudget is a plain value; one per decode.
#ifndef ZARF_STATE_BASE_MEMORY_BUDGET_H_
#define ZARF_STATE_BASE_MEMORY_BUDGET_H_

#include <cstddef>
#include <string_view>

#include "base/status.h"

namespace zs {

inline constexpr std::size_t kMemoryBudgetFloor = std::size_t{32} << 20;
inline constexpr std::size_t kMemoryBudgetPerInputByte = 4;
inline constexpr std::size_t kMemoryBudgetCeiling = std::size_t{1} << 30;

// Every over-budget error contains this phrase.
inline constexpr std::string_view kOverMemoryBudget = "over the memory budget";

// What building one thing costs, in bytes, besides the text it holds.
// A scalar or an array: the value and its slot in its container.
inline constexpr std::size_t kValueCost = 48;
// An object or mapping: the value, its member vector, and the struct of the
// model it may become (a deployed component takes about 750 bytes).
inline constexpr std::size_t kObjectCost = 1024;
// One document of a stream of several (JSON Lines, concatenated JSON, a
// YAML stream): what a reader keeps per document besides its values (its
// name, its classification, its place in a report).
inline constexpr std::size_t kDocumentCost = 2048;
// One field of a decoded message (protobuf on the wire, a model struct in
// memory): a message of a type with F fields costs kValueCost x (1 + F).
inline constexpr std::size_t kFieldCost = kValueCost;

// The budget of an input of `input_bytes` bytes.
constexpr std::size_t MemoryBudgetFor(std::size_t input_bytes) {
  const std::size_t cap = (kMemoryBudgetCeiling - kMemoryBudgetFloor) / kMemoryBudgetPerInputByte;
  return input_bytes >= cap ? kMemoryBudgetCeiling
                            : kMemoryBudgetFloor + kMemoryBudgetPerInputByte * input_bytes;
}

class MemoryBudget {
 public:
  // The budget of an input of `input_bytes` bytes (MemoryBudgetFor).
  explicit MemoryBudget(std::size_t input_bytes)
      : MemoryBudget(input_bytes, MemoryBudgetFor(input_bytes)) {}
  // An explicit limit, for a part of a larger decode or a test.
  MemoryBudget(std::size_t input_bytes, std::size_t limit)
      : input_bytes_(input_bytes), limit_(limit) {}

  // Takes `bytes` and returns true, or takes nothing and returns false when
  // they do not fit.
  bool Take(std::size_t bytes) {
    if (bytes > limit_ - used_) return false;
    used_ += bytes;
    return true;
  }
  // Gives back bytes taken for something since freed (an item of a stream
  // handed on).
  void Give(std::size_t bytes) { used_ -= bytes < used_ ? bytes : used_; }

  std::size_t limit() const { return limit_; }
  std::size_t used() const { return used_; }
  std::size_t left() const { return limit_ - used_; }
  std::size_t input_bytes() const { return input_bytes_; }

  // InvalidArgument: "<what> needs more than L bytes of memory, over the
  // memory budget of a N-byte input (32 MiB + 4 per input byte, at most
  // 1 GiB)". The caller adds the input's name as context.
  Status Exceeded(std::string_view what) const;

 private:
  std::size_t input_bytes_;
  std::size_t limit_;
  std::size_t used_ = 0;
};

}  // namespace zs

#endif  // ZARF_STATE_BASE_MEMORY_BUDGET_H_
