import ArgumentParser

/// Swift decodes argv lossily: a file name that is not UTF-8 would become another name
/// (U+FFFD), and another file would be read, replaced or created. Both executables refuse it
/// before parsing.
package enum ArgumentEncoding {
    /// Exits with a usage error when an argument is not valid UTF-8.
    package static func refuseInvalidUTF8<Command: ParsableCommand>(_ command: Command.Type, tool: String) {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
            command.exitPrintably(withError: ValidationError(
                "argument \(index) is not valid UTF-8 (a file name in another encoding?): \(tool) names files in UTF-8 and would use another file; rename it"))
        }
    }
}
