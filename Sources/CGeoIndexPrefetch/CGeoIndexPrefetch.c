// The target's one function is static inline in include/CGeoIndexPrefetch.h; SwiftPM needs a
// source file to build a C target.
#include "CGeoIndexPrefetch.h"
