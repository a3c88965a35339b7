import Foundation
import HealthEngine
import HealthQuery
import HealthStore
import MCP

/// Tells a subscribed client when an import brought something it may see: the store's
/// resource (`healthport://store`, what `describe` answers) is updated. A thread waits for
/// commits (`StoreChangeMonitor`, as `changes --follow` does); after each, the changes since
/// the last look are read through the gate, and only a visible change is announced, so an
/// import of denied types is as silent as no import at all.
final class StoreUpdates: @unchecked Sendable {
    static let resource = Resource(
        name: "store", uri: "healthport://store", title: "The health store",
        description: "What describe answers: the types, sources and devices you may see. Subscribe to hear when an import changes it.",
        mimeType: "application/json")

    private let configuration: AssistantConfiguration
    private let store: String
    private let announce: @Sendable (String) async -> Void
    private let lock = NSLock()
    private var subscribed = false
    private var stopped = false

    init(configuration: AssistantConfiguration, store: String, announce: @escaping @Sendable (String) async -> Void) {
        self.configuration = configuration
        self.store = store
        self.announce = announce
    }

    func subscribe() { lock.withLock { subscribed = true } }
    func unsubscribe() { lock.withLock { subscribed = false } }
    func stop() { lock.withLock { stopped = true } }
    private var isStopped: Bool { lock.withLock { stopped } }
    private var isSubscribed: Bool { lock.withLock { subscribed } }

    func start() {
        let thread = Thread { [self] in watch() }
        thread.name = "healthport-store-updates"
        thread.start()
    }

    private func watch() {
        guard let monitor = try? StoreChangeMonitor(path: store) else { return }
        var anchor = (try? StoreChangesRun(store: store, query: ObjectQuery(types: [])).batch().newAnchor) ?? 0
        while !isStopped {
            guard (try? monitor.waitForCommit(isCancelled: { self.isStopped })) == true else { return }
            guard isSubscribed, FileManager.default.fileExists(atPath: configuration.policyFile),
                let policy = try? AuthorizationPolicy.load(from: configuration.policyFile)
            else {
                anchor = (try? StoreChangesRun(store: store, query: ObjectQuery(types: [])).batch().newAnchor) ?? anchor
                continue
            }
            var query = ObjectQuery()
            query.policy = policy
            guard let batch = try? StoreChangesRun(store: store, query: query, anchor: anchor, limit: 1).batch() else { continue }
            if batch.added.isEmpty && batch.deleted.isEmpty {
                anchor = batch.newAnchor
                continue
            }
            // Something visible changed: announce once, and start again from the store's end.
            anchor = (try? StoreChangesRun(store: store, query: ObjectQuery(types: [])).batch().newAnchor) ?? batch.newAnchor
            let announce = self.announce
            let uri = Self.resource.uri
            let done = DispatchSemaphore(value: 0)
            Task {
                await announce(uri)
                done.signal()
            }
            done.wait()
        }
    }
}
