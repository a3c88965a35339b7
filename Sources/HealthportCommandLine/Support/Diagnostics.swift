import ArgumentParser
import Foundation
import HealthEngine
import HealthExport
import HealthOutput

/// The only place that writes to standard error: one line per diagnostic, compiler style,
/// `healthport: FILE:LINE:COL: error: message`, or with `--diagnostics json` one JSON object
/// per line (`DiagnosticRecord`).
package final class Diagnostics {
    package var quiet = false
    package let format: DiagnosticFormat
    private let useColor: Bool
    /// Files this command made for the run alone, removed if it fails (`removeOnFailure`).
    private var madeForTheRun: [String] = []

    package init(quiet: Bool = false, format: DiagnosticFormat = .text) {
        self.quiet = quiet
        self.format = format
        let environment = ProcessInfo.processInfo.environment
        useColor = format == .text && isatty(2) == 1 && environment["TERM"] != "dumb" && environment["NO_COLOR"] == nil
    }

    /// The diagnostics a command's options ask for (`--quiet`, `--diagnostics`).
    package convenience init(_ options: DiagnosticOptions) {
        self.init(quiet: options.quiet, format: options.diagnosticFormat)
    }

    private func write(_ record: DiagnosticRecord) {
        write(record.line)
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

    package func error(_ message: String, at location: String? = nil) {
        if format == .json { return write(DiagnosticRecord(type: "error", message: message, location: location)) }
        write("healthport: " + (location.map { "\(Self.printable($0)): " } ?? "") + label("error:", color: "31") + " " + Self.printable(message))
    }

    package func warning(_ message: String, at location: String? = nil) {
        guard !quiet else { return }
        if format == .json { return write(DiagnosticRecord(type: "warning", message: message, location: location)) }
        write("healthport: " + (location.map { "\(Self.printable($0)): " } ?? "") + label("warning:", color: "33") + " " + Self.printable(message))
    }

    /// `text` with control characters shown as `\xNN`: names come from strangers' archives (a zip
    /// entry's name, a source name), and a terminal would obey escape sequences in them.
    package static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += scalar.value <= 0xFF ? String(format: "\\x%02X", scalar.value) : String(format: "\\u{%X}", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    package func warning(_ warning: ExportWarning) {
        if format == .json {
            if !quiet { write(DiagnosticRecord(warning)) }
            return
        }
        self.warning(OptionNames.render(warning.text), at: warning.location?.description)
    }

    /// A failure in the command line's words (`OptionNames`): the predicate's option as its
    /// location, else the file's, else `fallback`.
    package func error(_ failure: RunError, at fallback: String? = nil) {
        if format == .json {
            var record = DiagnosticRecord(failure)
            if record.location == nil, failure.argument == nil, let fallback { record.location = DiagnosticRecord.location(parsing: fallback) }
            return write(record)
        }
        error(OptionNames.message(of: failure), at: OptionNames.location(of: failure) ?? fallback)
    }

    /// Progress a batch reports per input; silenced by `--quiet` like warnings.
    package func note(_ message: String) {
        guard !quiet else { return }
        if format == .json { return write(DiagnosticRecord(type: "note", message: message)) }
        write("healthport: " + Self.printable(message))
    }

    /// Removes `path` if the command fails: a file it made for this run (a new de-identification
    /// key), which a failed run must not leave behind as if it had been used.
    package func removeOnFailure(_ path: String) {
        madeForTheRun.append(path)
    }

    /// Runs a command body, printing exactly one diagnostic for a failure and exiting with the
    /// documented status (ArgumentParser would print `Error: …` and exit 1 for all of them).
    package func run(_ body: () throws -> Void) throws {
        Signals.install(format: format)
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            for path in madeForTheRun { unlink(path) }
            let failure = RunError(error)
            // A closed pipe is the reader going away: stop quietly.
            if failure.category == .outputClosed { throw ExitCode.success }
            // Cancelled by a signal: the run removed its outputs.
            if failure.category == .cancelled, let number = Signals.received {
                if format == .json {
                    write(DiagnosticRecord(signal: number, message: Signals.message(for: number)))
                } else {
                    write("\nhealthport: " + Signals.message(for: number))
                }
                throw ExitCode(128 + number)
            }
            self.error(failure)
            if format == .text { for line in failure.context { write(Self.printable(line)) } }
            throw ExitCode(ExitStatus.of(failure.category).rawValue)
        }
    }

    /// Runs an engine run with this command's reporter (warnings as lines, the progress line
    /// when asked for) and the signals' cancellation; the progress line is erased when the run
    /// returns or fails.
    package func perform<Result>(showing options: DiagnosticOptions, _ run: (RunReporter, RunCancellation) throws -> Result) throws -> Result {
        let line = ProgressLine(forced: options.progress, quiet: options.quiet, format: options.diagnosticFormat)
        defer { line.clear() }
        return try run(reporter(progress: line), Signals.cancellation)
    }

    /// The reporter a run reports through: warnings and batch notes as lines, progress on the
    /// progress line.
    package func reporter(progress line: ProgressLine? = nil) -> RunReporter {
        let box = UncheckedBox(diagnostics: self, line: line)
        return RunReporter(
            warning: { warning in
                box.line?.clear()
                box.diagnostics.warning(warning)
            },
            progress: { value in box.line?.update(value) },
            note: { note in
                switch note.kind {
                case .failed:
                    // As data, a failed input's record carries its error's fields (category,
                    // status, location) like the command's own error; as text, the note's words.
                    if box.diagnostics.format == .json, let failure = note.failure {
                        box.diagnostics.error(failure, at: note.location)
                    } else {
                        box.diagnostics.error(OptionNames.render(note.text), at: note.location)
                    }
                case .converted, .skipped, .storeUpgraded: box.diagnostics.note(OptionNames.render(note.text))
                }
            })
    }

    /// After a FHIR run: how the resources were coded, one note per object kind
    /// (`fhir: quantitySample: 3940 LOINC, 1265 HealthKit code, 3 fallback`), and a warning for
    /// what was left out. Counts of what was written only: nothing the policy hid.
    package func fhirSummary(_ tally: FHIRCodingTally?) {
        guard let tally else { return }
        for line in tally.lines { note("fhir: " + line) }
        for (reason, count) in tally.leftOut.sorted(by: { $0.key < $1.key }) { warning("fhir: \(count) left out: \(reason)") }
    }

    /// After an Open mHealth run: a note per schema written, a warning per reason something was
    /// left out, with its count.
    package func omhSummary(_ tally: OpenMHealthTally?) {
        guard let tally else { return }
        for line in tally.lines { note("omh: " + line) }
        for (reason, count) in tally.leftOut.sorted(by: { $0.key < $1.key }) { warning("omh: \(count) left out: \(reason)") }
    }

    /// After a run: repeats of warnings already printed once.
    package func repeats(_ warnings: [RepeatedWarning]) {
        for repeated in warnings where repeated.count > 1 {
            self.warning("\(OptionNames.render(repeated.warning.text)) (\(repeated.count) times in all)")
        }
    }
}

/// The diagnostics and the progress line, handed to a run's reporter: each writes a line with
/// one `write(2)`, so lines from a batch's workers never interleave.
private struct UncheckedBox: @unchecked Sendable {
    package let diagnostics: Diagnostics
    package let line: ProgressLine?
}
