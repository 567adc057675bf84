// Nothing to define: the module only exists to declare LLVMFuzzerRunDriver to Swift.
#include "CLibFuzzer.h"
