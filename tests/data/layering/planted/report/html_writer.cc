#include "engine/fold.h"
