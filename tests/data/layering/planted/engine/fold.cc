#include "migrate/internal/schema.h"
#include "codec/model.h"
