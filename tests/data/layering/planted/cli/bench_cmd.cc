#include "cli/output.h"
