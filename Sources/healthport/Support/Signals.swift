import Dispatch
import Foundation
import HealthOutput

/// Process-wide signal handling: a closed pipe arrives as `EPIPE` (a quiet stop), and an
/// interrupt removes temporary outputs before exiting with 130.
enum Signals {
    static func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            TemporaryFiles.shared.removeAll()
            let message = "\nhealthport: interrupted; temporary outputs were removed\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(130)
        }
        source.resume()
        retained.append(source)
    }

    private final class Box: @unchecked Sendable {
        var sources: [any DispatchSourceSignal] = []
        let lock = NSLock()
        func append(_ source: any DispatchSourceSignal) {
            lock.lock()
            sources.append(source)
            lock.unlock()
        }
    }

    private static let retained = Box()
}
