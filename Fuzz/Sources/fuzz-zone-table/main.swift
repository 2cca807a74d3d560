import CLibFuzzer

// libFuzzer's driver runs the test on each input, and exits itself.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
_ = LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzZoneTable(data, size) }
