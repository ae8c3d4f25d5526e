#include "core/high/High.h"
#include "core/low/Low.h"
