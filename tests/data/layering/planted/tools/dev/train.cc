#include "codec/internal/format.h"
