#include "kube/secret.h"
#include "json/internal/go_string_scan.h"
#include "json/json_value.h"
