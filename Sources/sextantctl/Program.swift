/// The program's entry, shared by its own executable and the multi-call `sextant`.
public enum Program {
    /// Runs the program with `arguments` (argv without argv[0]) and exits.
    public static func main(_ arguments: [String]) async {
        await SextantctlCommand.main(arguments: arguments)
    }
}
