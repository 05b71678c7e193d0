#include "migrate/internal/schema.h"
#include "model/model.h"
