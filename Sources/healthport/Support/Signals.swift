import Dispatch
import Foundation
import HealthOutput

/// Process-wide signal handling: a closed pipe arrives as `EPIPE` (a quiet stop), and an
/// interrupt, a `kill` or a closed terminal removes temporary outputs before exiting with
/// 128 + the signal's number (130, 143, 129), so no half-written file is left behind and a
/// previous good output is never replaced.
enum Signals {
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Idempotent: every command calls it through `Diagnostics.run`.
    static func install() {
        guard retained.installOnce() else { return }
        signal(SIGPIPE, SIG_IGN)
        for number in handled {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                TemporaryFiles.shared.removeAll()
                let name = number == SIGINT ? "interrupted" : "terminated"
                let message = "\nhealthport: \(name); temporary outputs were removed\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                exit(128 + number)
            }
            source.resume()
            retained.append(source)
        }
    }

    private final class Box: @unchecked Sendable {
        var sources: [any DispatchSourceSignal] = []
        var installed = false
        let lock = NSLock()
        func append(_ source: any DispatchSourceSignal) {
            lock.lock()
            sources.append(source)
            lock.unlock()
        }
        func installOnce() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if installed { return false }
            installed = true
            return true
        }
    }

    private static let retained = Box()
}
