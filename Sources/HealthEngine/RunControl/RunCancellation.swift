import Foundation

/// Lets a caller stop a run from another thread (a signal, a server's cancelled request).
///
/// The run notices within about a thousand objects, abandons its outputs (nothing
/// half-written is left) and throws `RunError` with `.cancelled`.
public final class RunCancellation: Sendable {
    private let flag = Flag()

    public init() {}

    public func cancel() { flag.set() }

    public var isCancelled: Bool { flag.value }

    /// The check a `QueryGate` calls.
    var check: @Sendable () -> Bool { { [flag] in flag.value } }

    private final class Flag: @unchecked Sendable {
        // A lock, not an atomic: it is read once per thousand objects, and the package builds
        // for macOS 13, before the standard library's atomics.
        private let lock = NSLock()
        private var isSet = false
        var value: Bool {
            lock.lock()
            defer { lock.unlock() }
            return isSet
        }
        func set() {
            lock.lock()
            isSet = true
            lock.unlock()
        }
    }
}
