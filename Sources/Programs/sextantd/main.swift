import SextantdMain

await SextantdMain.Program.main(Array(CommandLine.arguments.dropFirst()))
