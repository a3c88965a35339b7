import ArgumentParser

/// How a command writes its diagnostics on standard error (`--diagnostics`, healthport(1)
/// DIAGNOSTICS): lines for a person, or one JSON object per line for a program, so that no
/// program has to parse the wording of a message (the Python package and the Spark job read
/// the fields).
package enum DiagnosticFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// `healthport: FILE:LINE:COL: error: message`, compiler style; a progress line redrawn in
    /// place on a terminal.
    case text
    /// One object per line (`DiagnosticRecord`): errors, warnings, notes and progress.
    case json

    /// The format the arguments ask for, read from the raw arguments: for a failure
    /// ArgumentParser meets before any option has a value (an unknown option, a bad value).
    /// The last `--diagnostics` given wins, as it would after parsing.
    package static func requested(in arguments: [String]) -> DiagnosticFormat {
        var format = DiagnosticFormat.text
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--diagnostics", index + 1 < arguments.endIndex {
                format = DiagnosticFormat(rawValue: arguments[index + 1]) ?? format
                index += 1
            } else if argument.hasPrefix("--diagnostics=") {
                format = DiagnosticFormat(rawValue: String(argument.dropFirst("--diagnostics=".count))) ?? format
            }
            index += 1
        }
        return format
    }
}
