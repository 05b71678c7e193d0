#include "yaml/yaml.h"
#include "model/model.h"
#include "io/state_file.h"
#include "base/status.h"
