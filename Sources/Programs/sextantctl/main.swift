import SextantctlMain

await SextantctlMain.Program.main(Array(CommandLine.arguments.dropFirst()))
