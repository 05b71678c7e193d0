#include "cli/bench_cmd.h"
#include "cli/output.h"
