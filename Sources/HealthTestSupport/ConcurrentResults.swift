import Foundation

/// One slot per concurrent task, filled from any thread: what `DispatchQueue.concurrentPerform`
/// tests collect (exit statuses, failures) to assert on afterwards.
public final class ConcurrentResults<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value]

    public init(count: Int, initial: Value) { values = Array(repeating: initial, count: count) }

    public subscript(index: Int) -> Value {
        get { lock.withLock { values[index] } }
        set { lock.withLock { values[index] = newValue } }
    }

    public var all: [Value] { lock.withLock { values } }
}
