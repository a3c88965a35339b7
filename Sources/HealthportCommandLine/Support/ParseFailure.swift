import ArgumentParser
import Foundation

/// How both executables end on an error ArgumentParser met (a bad option, a bad value, help):
/// as `exit(withError:)` would, but with each line of the message made printable as every other
/// diagnostic is (`Diagnostics.printable`: an escape byte shown as `\x1B`).
///
/// ArgumentParser's messages quote what was typed: `--evening $'\e]0;pwned\a'` put an escape
/// sequence on the terminal (a new window title, or worse), where every other diagnostic of
/// healthport's is made printable (`Diagnostics.printable`). Help and version text, printed to
/// standard output with status 0, are healthport's own and kept as they are.
extension ParsableCommand {
    package static func exitPrintably(withError error: Error?) -> Never {
        guard let error else { exit(withError: nil) }
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        // With `--diagnostics json` among the arguments, one error record: the message, status
        // 64, the usage lines as its context. An `ExitCode` a command threw after writing its
        // own record has no message: nothing more is written.
        if DiagnosticFormat.requested(in: Array(CommandLine.arguments.dropFirst())) == .json {
            let text = fullMessage(for: error)
            if text.isEmpty { Foundation.exit(code.rawValue) }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            FileHandle.standardError.write(Data((DiagnosticRecord(usage: lines, status: code.rawValue).line + "\n").utf8))
            Foundation.exit(code.rawValue)
        }
        // Line by line: the usage lines ArgumentParser adds are kept as lines.
        let message = fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false)
            .map { Diagnostics.printable(String($0)) }.joined(separator: "\n")
        if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        Foundation.exit(code.rawValue)
    }
}
