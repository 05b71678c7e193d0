#include "json/json_value.h"
