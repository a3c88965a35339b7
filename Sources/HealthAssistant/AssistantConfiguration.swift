import Foundation
import HealthEngine
import HealthQuery

/// What `healthport mcp` serves: one store (or one export), read as the consumer of one policy
/// file may read it. The assistant names neither: it cannot read another store or write another
/// policy.
public struct AssistantConfiguration: Sendable {
    /// The store (`healthport-store(5)`), or an export (read again at every call; no changes,
    /// no notifications).
    public var input: ObjectInput
    /// The store's path, when the input is the store.
    public var store: String? {
        if case .store(let path) = input { return path }
        return nil
    }
    /// The policy file (`healthport-policy(5)`): read again at every call, so a change on
    /// disk takes effect at the next one; written only with the person's answers.
    public var policyFile: String
    /// The consumer's name for a policy file that does not exist yet; by default the name the
    /// client gives in its `initialize` request.
    public var consumer: String?
    /// Objects per `query_samples` page (and rows per `statistics` page) when the call names
    /// no `pageSize`.
    public var defaultPageSize = 100
    /// The most a page can hold: a larger `pageSize` is an error, not a silent cut.
    public static let maximumPageSize = 1_000
    /// A page ends before its JSON passes this many bytes (it always holds one object).
    public var pageByteLimit = 256 * 1024
    /// Watch the store for imports and tell subscribed clients (`notifications/resources/updated`).
    public var watchesStore = true
    /// The version the server gives in its `initialize` answer (healthport's).
    public var serverVersion = "0.7.0"
    /// How an export input is read (`healthport mcp --parser`): handed to every run a tool
    /// makes, explicitly. (A task-local once carried the parser; the tools run on threads that
    /// do not see it, and read with the scanner under `--parser libxml2`.)
    public var reading = ReadOptions()

    public init(store: String, policyFile: String, consumer: String? = nil) {
        self.init(input: .store(store), policyFile: policyFile, consumer: consumer)
    }

    public init(input: ObjectInput, policyFile: String, consumer: String? = nil) {
        self.input = input
        self.policyFile = policyFile
        self.consumer = consumer
    }
}
