#include "kube/secret.h"
#include "model/model.h"
