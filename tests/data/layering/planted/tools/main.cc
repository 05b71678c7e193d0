#include "tests/test_util.h"
#include "codec/internal/format.h"
#include "engine/cache.h"
