#include "base/memory_budget.h"

#include <gtest/gtest.h>

#include <string>

namespace zs {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Every reader takes its budget from MemoryBudgetFor: one table for all.
TEST(MemoryBudgetTest, TheBudgetOfAnInputIsAFloorPlusFourPerByteUnderACeiling) {
  struct Row {
    std::size_t input;
    std::size_t limit;
  };
  const Row rows[] = {
      {0, 32 * kMiB},
      {1, 32 * kMiB + 4},
      {1 * kMiB, 36 * kMiB},         // a Secret at the API server's limit
      {10 * kMiB, 72 * kMiB},        // a 5M-document JSON stream
      {248 * kMiB, 1024 * kMiB},     // where the ceiling starts
      {256 * kMiB, 1024 * kMiB},     // the largest input a command reads
      {~std::size_t{0}, 1024 * kMiB},  // no overflow
  };
  for (const Row& r : rows) {
    EXPECT_EQ(MemoryBudgetFor(r.input), r.limit) << r.input;
    EXPECT_EQ(MemoryBudget(r.input).limit(), r.limit) << r.input;
    // The target the budget serves: 64 MiB + 8 x the input, never 2 GiB.
    EXPECT_LE(r.limit, 2 * kMiB * 1024);
    if (r.input < 256 * kMiB) {
      EXPECT_LE(r.limit, 64 * kMiB + 8 * r.input);
    }
  }
}

TEST(MemoryBudgetTest, TakeRefusesWhatDoesNotFitAndTakesNothingThen) {
  MemoryBudget b(100, 1000);
  EXPECT_TRUE(b.Take(600));
  EXPECT_FALSE(b.Take(401));
  EXPECT_EQ(b.used(), 600u);
  EXPECT_TRUE(b.Take(400));
  EXPECT_EQ(b.left(), 0u);
  EXPECT_FALSE(b.Take(1));
  b.Give(300);
  EXPECT_EQ(b.left(), 300u);
  b.Give(5000);  // more than was taken: back to nothing
  EXPECT_EQ(b.used(), 0u);
  EXPECT_FALSE(b.Take(~std::size_t{0}));  // no overflow
}

TEST(MemoryBudgetTest, TheErrorNamesWhatTheLimitAndTheInputSize) {
  const Status s = MemoryBudget(1000).Exceeded("doc.yaml: the values");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "doc.yaml: the values needs more than 33558432 bytes of memory, over the memory "
            "budget of a 1000-byte input (32 MiB + 4 per input byte, at most 1024 MiB)");
  EXPECT_NE(s.message().find(kOverMemoryBudget), std::string::npos);
}

}  // namespace
}  // namespace zs
