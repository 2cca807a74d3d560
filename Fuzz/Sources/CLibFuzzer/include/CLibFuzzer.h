// libFuzzer's driver, which the toolchain's libclang_rt.fuzzer provides when linking with
// -sanitize=fuzzer. SwiftPM gives every executable its own main, so each fuzz target's
// main hands its test function to this driver instead of defining LLVMFuzzerTestOneInput.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
