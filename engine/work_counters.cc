#include "engine/work_counters.h"

#include <atomic>

namespace zs::engine {
namespace {

std::atomic<std::uint64_t> g_decoded{0};
std::atomic<std::uint64_t> g_folded{0};

}  // namespace

WorkCounters CurrentWorkCounters() {
  return {g_decoded.load(std::memory_order_relaxed), g_folded.load(std::memory_order_relaxed)};
}

namespace internal {
void CountRecordDecoded() { g_decoded.fetch_add(1, std::memory_order_relaxed); }
void CountRecordFolded() { g_folded.fetch_add(1, std::memory_order_relaxed); }
}  // namespace internal

}  // namespace zs::engine
