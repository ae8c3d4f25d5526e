// grove-cli's usage text: `grove-cli --help`, and the manual's grove-cli reference (docs/).
#pragma once

extern const char *const kCliUsage;
