// What kube/secret.cc and kube/list_file.cc share to hand out a List's items.
//
// Internal to kube/.
#ifndef ZARF_STATE_KUBE_INTERNAL_LIST_ITEMS_H_
#define ZARF_STATE_KUBE_INTERNAL_LIST_ITEMS_H_

#include <functional>
#include <string>

#include "base/status.h"
#include "json/json_value.h"
#include "kube/secret.h"

namespace zs::internal {

// Classifies one item of a List (`label`: "<source> items[N]") and hands
// it to `on_object`, or adds it to `header->skipped` when it is a Secret
// that is not Zarf state.
Status DeliverListItem(json::Value item, std::string label, Input* header,
                       const std::function<Status(InputObject)>& on_object);

}  // namespace zs::internal

#endif  // ZARF_STATE_KUBE_INTERNAL_LIST_ITEMS_H_
