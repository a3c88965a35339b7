import Foundation
import HealthExport
import HealthOutput
import HealthQuery
import HealthStore
import ArgumentParser

/// The only place that writes to standard error: one line per diagnostic, compiler style,
/// `healthport: FILE:LINE:COL: error: message`.
final class Diagnostics {
    var quiet = false
    private let useColor: Bool

    init(quiet: Bool = false) {
        self.quiet = quiet
        let environment = ProcessInfo.processInfo.environment
        useColor = isatty(2) == 1 && environment["TERM"] != "dumb" && environment["NO_COLOR"] == nil
    }

    private func write(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    private func label(_ text: String, color: String) -> String {
        useColor ? "\u{1B}[1;\(color)m\(text)\u{1B}[0m" : text
    }

    func error(_ message: String, at location: String? = nil) {
        write("healthport: " + (location.map { "\($0): " } ?? "") + label("error:", color: "31") + " " + message)
    }

    func warning(_ message: String, at location: String? = nil) {
        guard !quiet else { return }
        write("healthport: " + (location.map { "\($0): " } ?? "") + label("warning:", color: "33") + " " + message)
    }

    func warning(_ warning: ExportWarning) {
        self.warning(warning.message, at: warning.location?.description)
    }

    /// After a read: repeats of warnings already printed once.
    func repeats(_ summary: [(warning: ExportWarning, count: Int)]) {
        for (warning, count) in summary where count > 1 {
            self.warning("\(warning.message) (\(count) times in all)")
        }
    }

    /// Progress a batch reports per input; silenced by `--quiet` like warnings.
    func note(_ message: String) {
        guard !quiet else { return }
        write("healthport: " + message)
    }

    /// Runs a command body, printing exactly one diagnostic for a failure and exiting with the
    /// documented status (ArgumentParser would print `Error: …` and exit 1 for all of them).
    func run(_ body: () throws -> Void) throws {
        Signals.install()
        do {
            try body()
        } catch let error as ExportError {
            self.error(error.message, at: error.location?.description)
            throw ExitCode(ExitStatus.of(error).rawValue)
        } catch let error as OutputError {
            if error.code == .brokenPipe { throw ExitCode.success }
            self.error(error.message, at: error.path)
            throw ExitCode(ExitStatus.of(error).rawValue)
        } catch let error as QueryError {
            self.error(error.message)
            throw ExitCode(ExitStatus.of(error).rawValue)
        } catch let error as AuthorizationError {
            self.error(error.description)
            throw ExitCode(ExitStatus.of(error).rawValue)
        } catch let error as AnchorError {
            self.error(error.message)
            throw ExitCode(ExitStatus.usage.rawValue)
        } catch let error as StoreError {
            self.error(error.message)
            throw ExitCode(ExitStatus.of(error).rawValue)
        } catch let error as PolicyFileError {
            self.error(error.message, at: error.path)
            throw ExitCode(ExitStatus.configuration.rawValue)
        } catch let error as QueryPredicateError {
            // healthport: --where: 1:17: expected a value after '>=', then the predicate and a caret.
            self.error(error.message, at: "--where" + (error.column.map { ":1:\($0)" } ?? ""))
            for line in error.caretLines { write(line) }
            throw ExitCode(ExitStatus.usage.rawValue)
        } catch let error as ExitCode {
            throw error
        } catch {
            self.error("internal error: \(error); please report this as a bug")
            throw ExitCode(ExitStatus.software.rawValue)
        }
    }
}
