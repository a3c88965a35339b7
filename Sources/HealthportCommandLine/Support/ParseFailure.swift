import ArgumentParser
import Foundation

/// How both executables end on an error ArgumentParser met (a bad option, a bad value, help):
/// as `exit(withError:)` would, but with every control character of the message shown as `?`.
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
        let message = ParseFailure.printable(fullMessage(for: error))
        if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        Foundation.exit(code.rawValue)
    }
}

package enum ParseFailure {
    /// `text` with every control character but the newline and tab (C0, DEL, C1) as `?`.
    package static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let value = scalar.value
            let control = (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
            return control ? "?" : scalar
        }))
    }
}
