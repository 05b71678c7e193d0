#include "json/json_value.h"
#include "newfolder/thing.h"
