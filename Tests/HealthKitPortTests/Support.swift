import Foundation
import HealthEngine
import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// Inputs and reference answers: what `healthport query` / `changes --store` print for the same
/// data, produced by the same engine runs the command line calls (NDJSON, parsed).
enum Reference {
    static let export = Fixtures.sampleData.appendingPathComponent("export.zip")
    static let olderExport = Fixtures.sampleData.appendingPathComponent("export-older.zip")

    /// The `healthport` binary built beside the tests (`HEALTHPORT_BINARY` names another).
    static var healthportBinary: URL {
        if let path = ProcessInfo.processInfo.environment["HEALTHPORT_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("healthport")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/healthport")
    }

    /// Runs `healthport` with `arguments`, expecting success.
    @discardableResult
    static func healthport(_ arguments: String...) throws -> CommandRunner.Result {
        let result = try CommandRunner.run(healthportBinary, arguments)
        #expect(result.status == 0, "healthport \(arguments.joined(separator: " ")): \(result.stderrText)")
        return result
    }

    /// A fresh store holding `export` (`healthport import`).
    static func store(from export: URL = Reference.export) throws -> URL {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite")
        _ = try ImportRun(export: export.path, store: store.path).run()
        return store
    }

    /// The NDJSON object lines `healthport query` writes for `run` (the export header dropped).
    static func queryLines(_ run: SampleQueryRun) throws -> [[String: Any]] {
        var run = run
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("out.ndjson")
        run.format = .ndjson
        run.output = out.path
        _ = try run.run()
        return try lines(out).filter { $0["kind"] as? String != "export" }
    }

    /// The `changes` NDJSON lines for `run` (over an export or the store).
    static func changeLines(_ run: ChangesRun) throws -> [[String: Any]] {
        var run = run
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("changes.ndjson")
        run.format = .ndjson
        run.output = out.path
        _ = try run.run()
        return try lines(out)
    }

    /// The uuids of a change stream's added objects, then of its deleted ones, in stream order.
    static func changedUUIDs(_ lines: [[String: Any]]) -> (added: [String], deleted: [String]) {
        (
            lines.filter { $0["type"] as? String == "added" }.compactMap { ($0["object"] as? [String: Any])?["uuid"] as? String },
            lines.filter { $0["type"] as? String == "deleted" }.compactMap { $0["uuid"] as? String }
        )
    }

    static func lines(_ url: URL) throws -> [[String: Any]] {
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func uuids(_ lines: [[String: Any]]) -> [String] {
        lines.compactMap { $0["uuid"] as? String }
    }
}

/// A sheet whose answers the test sets, recording what it was shown.
final class ScriptedPresenter: HKAuthorizationPresenter, @unchecked Sendable {
    enum Answer { case allowAll, denyAll, cancel }
    let answer: Answer
    private let lock = NSLock()
    private var _asked: [HKAuthorizationRequest] = []
    private var _offered: [HKPerObjectAuthorizationRequest] = []

    init(_ answer: Answer) { self.answer = answer }

    var asked: [HKAuthorizationRequest] { lock.withLock { _asked } }
    var offered: [HKPerObjectAuthorizationRequest] { lock.withLock { _offered } }

    func presentAuthorizationRequest(_ request: HKAuthorizationRequest) async throws -> HKAuthorizationResponse? {
        lock.withLock { _asked.append(request) }
        switch answer {
        case .allowAll: return HKAuthorizationResponse(allowedRead: Set(request.read), allowedShare: Set(request.share))
        case .denyAll: return HKAuthorizationResponse()
        case .cancel: return nil
        }
    }

    func presentPerObjectRequest(_ request: HKPerObjectAuthorizationRequest) async throws -> HKPerObjectAuthorizationResponse? {
        lock.withLock { _offered.append(request) }
        switch answer {
        case .allowAll: return HKPerObjectAuthorizationResponse(decisions: Dictionary(request.samples.map { ($0.uuid, true) }, uniquingKeysWith: { a, _ in a }))
        case .denyAll: return HKPerObjectAuthorizationResponse(decisions: Dictionary(request.samples.map { ($0.uuid, false) }, uniquingKeysWith: { a, _ in a }))
        case .cancel: return nil
        }
    }
}
