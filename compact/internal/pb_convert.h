// The model <-> protobuf conversion of the compact codec (compact.cc):
// DeployedPackage to zs.compact.pb.DeployedPackage and back, with every
// check of what a payload may hold. Internal to compact/.
//
// Thread safety: pure functions; reentrant.
#ifndef ZARF_STATE_COMPACT_INTERNAL_PB_CONVERT_H_
#define ZARF_STATE_COMPACT_INTERNAL_PB_CONVERT_H_

#include <cstddef>

#include "base/status.h"
#include "compact/event.pb.h"
#include "json/json_value.h"
#include "model/model.h"

namespace zs::compact::internal {

namespace pb = ::zs::compact::pb;

// What the JSON reader charges for building `v` (base/memory_budget.h).
std::size_t JsonCost(const json::Value& v);

// `p` as a message: InvalidArgument for what the format cannot hold (text
// that is not UTF-8, JSON nested too deep, a timestamp out of range).
Status PutPackage(const DeployedPackage& p, pb::DeployedPackage* out);

// The package `in` holds, spending `*left` (the decode budget) on every
// value built; Corruption naming what is wrong with a message no writer of
// ours makes, InvalidArgument when a JSON text is over what is left.
Status GetPackage(const pb::DeployedPackage& in, std::size_t* left, DeployedPackage* out);

}  // namespace zs::compact::internal

#endif  // ZARF_STATE_COMPACT_INTERNAL_PB_CONVERT_H_
