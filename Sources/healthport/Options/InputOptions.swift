import ArgumentParser

/// The export argument every reading command takes.
struct InputOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("The export: export.zip, the unzipped folder, export.xml, or - for standard input.", valueName: "export"),
        completion: .file(extensions: ["zip", "xml"]))
    var export: String
}

/// How chatty the command is on standard error.
struct DiagnosticOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print no warnings (errors are always printed).")
    var quiet = false

    @Flag(inversion: .prefixedNo, help: "Show a progress line on standard error (default: only when it is a terminal).")
    var progress: Bool? = nil
}
