#include "tests/test_util.h"
#include "compact/internal/format.h"
#include "engine/cache.h"
#include "cli/bench_cmd.h"
