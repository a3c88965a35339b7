import Dispatch
import Foundation
import HealthEngine
import HealthOutput

/// Process-wide signal handling: a closed pipe arrives as `EPIPE` (a quiet stop); an
/// interrupt, a `kill` or a closed terminal cancels the command's run, which abandons its
/// outputs (nothing half-written is left, a previous good output is never replaced) and ends
/// with 128 + the signal's number (130, 143, 129).
///
/// A run blocked on input that does not come (a pipe left open) cannot notice; after a short
/// grace, or at a second signal, the registered temporary files are removed and the process
/// exits. The CLI may exit from a signal handler; the library never does.
package enum Signals {
    package static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// How long a cancelled run has to end by itself.
    package static let grace: DispatchTimeInterval = .milliseconds(1500)

    /// The cancellation of the command's run: commands hand it to the engine.
    package static var cancellation: RunCancellation { state.cancellation }

    /// The signal that cancelled the run, if one did.
    package static var received: Int32? { state.received }

    /// Idempotent: every command calls it through `Diagnostics.run`, with its `--diagnostics`
    /// format, which the last line of a forced exit keeps (one JSON record in `json` mode).
    package static func install(format: DiagnosticFormat = .text) {
        guard state.installOnce(format: format) else { return }
        signal(SIGPIPE, SIG_IGN)
        // Past RLIMIT_FSIZE (`ulimit -f`), a write fails with EFBIG instead of the kernel killing
        // the process: the run then ends as on a full disk (status 74), its temporaries removed.
        signal(SIGXFSZ, SIG_IGN)
        // A parent may hand down these signals blocked (a supervisor, a test runner's worker
        // thread): a terminated run would then never hear it and run to its end. Unblocked
        // here, before they are handled; one already pending ends the process now, when it
        // has made nothing yet.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in handled { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for number in handled {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if state.receive(number) {
                    state.cancellation.cancel()
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace) { forceExit(number) }
                } else {
                    forceExit(number)
                }
            }
            source.resume()
            state.append(source)
        }
    }

    /// The message a cancelled command ends with.
    package static func message(for number: Int32) -> String {
        "\(number == SIGINT ? "interrupted" : "terminated"); temporary outputs were removed"
    }

    private static func forceExit(_ number: Int32) -> Never {
        TemporaryFiles.shared.removeAll()
        let text = state.format == .json
            ? DiagnosticRecord(signal: number, message: message(for: number)).line + "\n"
            : "\nhealthport: \(message(for: number))\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        exit(128 + number)
    }

    private final class State: @unchecked Sendable {
        let cancellation = RunCancellation()
        private var sources: [any DispatchSourceSignal] = []
        private var installed = false
        private var first: Int32?
        private let lock = NSLock()

        func append(_ source: any DispatchSourceSignal) {
            lock.lock()
            sources.append(source)
            lock.unlock()
        }

        /// The format of the last line a forced exit writes.
        private(set) var format: DiagnosticFormat = .text

        func installOnce(format: DiagnosticFormat) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if installed { return false }
            installed = true
            self.format = format
            return true
        }

        /// Records a signal; true for the first one.
        func receive(_ number: Int32) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if first != nil { return false }
            first = number
            return true
        }

        var received: Int32? {
            lock.lock()
            defer { lock.unlock() }
            return first
        }
    }

    private static let state = State()
}
