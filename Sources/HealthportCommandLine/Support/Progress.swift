import Foundation
import HealthEngine

/// The progress line on standard error: only when it is a terminal (or forced), at most ten
/// updates a second, erased when done. With `--diagnostics json`, a `progress` record per
/// update instead (only when forced with `--progress`: a program asks for it), nothing erased.
package final class ProgressLine {
    private let enabled: Bool
    private let format: DiagnosticFormat
    @exclusivity(unchecked) private var lastUpdate = Date.distantPast
    @exclusivity(unchecked) private var shown = false

    package init(forced: Bool?, quiet: Bool, format: DiagnosticFormat = .text) {
        self.format = format
        if quiet && forced != true {
            enabled = false
        } else if format == .json {
            enabled = forced == true
        } else {
            enabled = forced ?? (isatty(2) == 1)
        }
    }

    package func update(_ progress: RunProgress) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastUpdate) >= 0.1 else { return }
        lastUpdate = now
        if format == .json {
            emit(DiagnosticRecord(progress: progress).line + "\n")
            return
        }
        var text = "healthport: " + Self.bytes(progress.bytesRead)
        if let total = progress.totalBytes, total > 0 {
            let percent = min(100, Int(Double(progress.bytesRead) / Double(total) * 100))
            text = "healthport: \(percent)% " + Self.bytes(progress.bytesRead) + " of " + Self.bytes(total)
        }
        text += ", \(progress.objects) objects"
        emit("\r\u{1B}[K" + text)
        shown = true
    }

    package func clear() {
        guard shown else { return }
        emit("\r\u{1B}[K")
        shown = false
    }

    private func emit(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    package static func bytes(_ n: Int64) -> String { ByteCount.text(n) }
}
