import Foundation
import ArgumentParser
import HealthEngine
import HealthStore

/// The export argument every reading command takes.
package struct InputOptions: ParsableArguments {
    package init() {}

    @Argument(
        help: ArgumentHelp("The export: export.zip, the unzipped folder, export.xml, or - for standard input.", valueName: "export"),
        completion: .file(extensions: ["zip", "xml"]))
    package var export: String

    @OptionGroup package var parsing: ParserOptions
}

/// How chatty the command is on standard error.
package struct DiagnosticOptions: ParsableArguments {
    package init() {}

    @Flag(name: .shortAndLong, help: "Print no warnings (errors are always printed).")
    package var quiet = false

    @Flag(inversion: .prefixedNo, help: "Show a progress line on standard error (default: only when it is a terminal).")
    package var progress: Bool? = nil

    @OptionGroup package var format: DiagnosticFormatOption

    package var diagnosticFormat: DiagnosticFormat { format.diagnosticFormat }
}

/// `--diagnostics text|json`: how diagnostics are written (`DiagnosticFormat`). Part of every
/// command's `DiagnosticOptions`, and alone on the commands that print no warnings or progress
/// (the `auth` commands).
package struct DiagnosticFormatOption: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("diagnostics"),
        help: ArgumentHelp(
            "Write errors, warnings, notes and progress on standard error as text lines or as one JSON object per line, for programs (healthport(1), DIAGNOSTICS).",
            valueName: "text|json"))
    package var diagnosticFormat: DiagnosticFormat = .text
}

/// The input of a command that reads an export or the store: an export argument, or
/// `--store PATH`, or neither (the store at `$HEALTHPORT_STORE` or the default location).
package struct ExportOrStoreOptions: ParsableArguments {
    package init() {}

    @Argument(
        help: ArgumentHelp("The export (export.zip, the folder, export.xml, or -); omit it to read the store.", valueName: "export"),
        completion: .file(extensions: ["zip", "xml"]))
    package var export: String? = nil

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the store at this path instead of an export (default without an export: $HEALTHPORT_STORE, else ~/.local/share/healthport/health.sqlite).",
            valueName: "path"))
    package var store: String? = nil

    @OptionGroup package var parsing: ParserOptions

    package func validate() throws {
        if export != nil && store != nil { throw ValidationError("give an export or --store, not both") }
    }

    /// The store's path when the command reads the store, `nil` when it reads an export.
    package var storePath: String? {
        export == nil ? StoreLocation.resolve(store, environment: ProcessInfo.processInfo.environment) : nil
    }

    /// What the run reads.
    package var objectInput: ObjectInput {
        storePath.map { .store($0) } ?? .export(export ?? "-")
    }
}
