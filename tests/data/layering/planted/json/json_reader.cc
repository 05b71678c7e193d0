#include "yaml/yaml.h"
#include "codec/model.h"
#include "base/status.h"
