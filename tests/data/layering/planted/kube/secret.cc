#include "compact/compact.h"
#include "model/model.h"
