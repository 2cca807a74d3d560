import SextantPanelMain

await SextantPanelMain.Program.main(Array(CommandLine.arguments.dropFirst()))
