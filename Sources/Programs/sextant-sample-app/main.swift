import SampleAppMain

await SampleAppMain.Program.main(Array(CommandLine.arguments.dropFirst()))
