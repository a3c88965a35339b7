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
        guard let notice = try? StoreChangeNotice(store: store) else { return }
        while !isStopped {
            guard (try? notice.waitForCommit(isCancelled: { self.isStopped })) == true else { return }
            var query: ObjectQuery? = nil
            if isSubscribed, FileManager.default.fileExists(atPath: configuration.policyFile),
                let policy = try? AuthorizationPolicy.load(from: configuration.policyFile)
            {
                query = ObjectQuery()
                query?.policy = policy
            }
            // Only whether a visible change came: an import of denied types is as silent as
            // no import, and nothing else about the store reaches the client.
            guard (try? notice.changedSinceLastLook(visibleTo: query)) == true else { continue }
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
