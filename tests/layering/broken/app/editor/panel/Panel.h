#pragma once
#include "common/Style.h"
