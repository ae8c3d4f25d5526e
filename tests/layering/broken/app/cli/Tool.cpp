#include "tests/Helper.h"
#include "core/high/High.h"
