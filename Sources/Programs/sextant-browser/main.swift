import SextantBrowserMain

await SextantBrowserMain.Program.main(Array(CommandLine.arguments.dropFirst()))
