#include "engine/cache.h"
