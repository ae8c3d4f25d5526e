#include "core/low/Low.h"
#include "core/high/High.h"
#include <QString>
#include "Low.h"
#include "app/cli/Tool.h"
