#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs with their own main (compiler-rt FuzzerInterface.h): parses
/// the libFuzzer flags in argv and runs `callback` on every input. Defined by the runtime that
/// `-sanitize=fuzzer` links in.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
