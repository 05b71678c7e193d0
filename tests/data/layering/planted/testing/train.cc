#include "compact/internal/format.h"
#include "tests/test_util.h"
