#include "app/editor/panel/Panel.h"
