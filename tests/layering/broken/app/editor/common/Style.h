#pragma once
#include "panel/Panel.h"
