import Foundation
import HealthAssistant
import HealthEngine
import HealthQuery
import HealthTestSupport
import MCP
import Testing

/// A client subscribed to the store hears of an import that brings something it may see, and
/// of no other: an import that changes only a denied type is as silent as none.
@Suite struct MCPStoreUpdateTests {
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }

        /// Waits up to `seconds` for the count to reach `target`.
        func wait(for target: Int, seconds: Double) async -> Int {
            let deadline = Date().addingTimeInterval(seconds)
            while value < target && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            return value
        }
    }

    /// SampleData's export as healthport's NDJSON, without the objects of `type`.
    static func exportWithout(_ type: String, in folder: URL) throws -> String {
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let manifest = try JSONDecoder().decode(
            ExportGenerator.Manifest.self, from: Data(contentsOf: Fixtures.sampleData.appendingPathComponent("manifest.json")))
        let types = Set(manifest.objectsByType.keys.filter { $0.hasPrefix("HK") && $0 != type })
        let output = folder.appendingPathComponent("without-\(type).ndjson").path
        _ = try ConversionRun(export: export, query: ObjectQuery(types: types), format: .ndjson, output: output).run()
        return output
    }

    @Test func onlyAnImportOfVisibleChangesIsAnnounced() async throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("health.sqlite").path
        let full = Fixtures.sampleData.appendingPathComponent("export.zip").path
        _ = try ImportRun(export: full, store: store).run()
        let withoutHeartRates = try Self.exportWithout(MCPHarness.heartRate, in: folder)
        let withoutSteps = try Self.exportWithout(MCPHarness.steps, in: folder)

        let policyFile = folder.appendingPathComponent("assistant.json").path
        try MCPHarness.runClubPolicy().save(to: policyFile)
        let server = AssistantServer(configuration: AssistantConfiguration(store: store, policyFile: policyFile))
        let heard = Heard()
        let client = Client(name: "Subscriber", version: "1.0")
        await client.onNotification(ResourceUpdatedNotification.self) { message in
            if message.params.uri == "healthport://store" { heard.add() }
        }
        let (clientTransport, serverTransport) = await InMemoryTransport.createConnectedPair()
        try await server.start(transport: serverTransport)
        _ = try await client.connect(transport: clientTransport)
        defer { Task { await client.disconnect(); await server.stop() } }

        let resources = try await client.listResources().resources
        #expect(resources.map(\.uri) == ["healthport://store"])
        let contents = try await client.readResource(uri: "healthport://store")
        #expect(contents.first?.text?.contains(MCPHarness.steps) == true)
        #expect(contents.first?.text?.contains(MCPHarness.heartRate) == false)
        try await client.subscribeToResource(uri: "healthport://store")
        try await Task.sleep(for: .milliseconds(300))

        // Heart rates (denied) deleted, then back: nothing the client may see changed.
        _ = try ImportRun(export: withoutHeartRates, store: store).run()
        _ = try ImportRun(export: full, store: store).run()
        #expect(await heard.wait(for: 1, seconds: 2) == 0, "an import of denied types only is silent")

        // Steps (granted) deleted: announced.
        _ = try ImportRun(export: withoutSteps, store: store).run()
        #expect(await heard.wait(for: 1, seconds: 10) == 1)
    }
}
