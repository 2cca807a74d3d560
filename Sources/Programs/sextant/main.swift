import SampleAppMain
import SextantBrowserMain
import SextantPanelMain
import SextantctlMain
import SextantdMain

#if canImport(Glibc)
import Glibc
#endif

// Sextant's five programs in one binary, installed once with a link for each program's name
// (as busybox is), so that the Swift runtime, Foundation and the packages are on disk once,
// not five times. The name it is run as chooses the program; `sextant PROGRAM ARGS...` works
// as well.

let programs: [String: ([String]) async -> Void] = [
    "sextantd": SextantdMain.Program.main,
    "sextantctl": SextantctlMain.Program.main,
    "sextant-panel": SextantPanelMain.Program.main,
    "sextant-browser": SextantBrowserMain.Program.main,
    "sextant-sample-app": SampleAppMain.Program.main,
]

func programName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? "")
}

var arguments = CommandLine.arguments
if programs[programName(arguments.first ?? "")] == nil, arguments.count > 1, programs[arguments[1]] != nil {
    arguments.removeFirst()
}
guard let program = programs[programName(arguments.first ?? "")] else {
    let names = programs.keys.sorted().joined(separator: ", ")
    FileDescriptorOutput.standardError("usage: sextant PROGRAM [ARGS...], or run it by a link named one of: \(names)\n")
    exit(64)
}
await program(Array(arguments.dropFirst()))

enum FileDescriptorOutput {
    static func standardError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
