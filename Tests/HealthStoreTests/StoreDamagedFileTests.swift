import Foundation
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

@testable import HealthStore

/// Store files the store fuzzer made damaged (`Fuzz/regressions/store`, the inputs whose first
/// byte is even: the rest is the file), opened as every command opens a store: for reading and
/// read whole, for writing and imported into. Each either works or refuses the store with a
/// `StoreError`; none stops the process. Among them: a file whose schema, read through GRDB's
/// `tableExists`, stopped the process on a row of `sqlite_master` it could not decode, and one
/// whose upgrade left it needing the upgrade again (each opening upgraded it, recursively).
@Suite struct StoreDamagedFileTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Fuzz/regressions/store")

    /// The file-shaped inputs, by name.
    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { name in
            guard let first = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)?.first
            else { return false }
            return first % 2 == 0
        }
    }

    @Test func theRegressionFolderHoldsDamagedFiles() {
        #expect(Self.files.contains("schema-row-of-null-type") && Self.files.contains("upgrade-leaves-rules-stale"))
    }

    @Test(arguments: files)
    func aDamagedFileIsReadOrRefusedWithAStoreError(name: String) throws {
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name)).dropFirst()
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        func answers(_ what: String, _ body: () throws -> Void) {
            do {
                try body()
            } catch {
                #expect(error is StoreError, "\(what): \(type(of: error)): \(error)")
            }
        }
        answers("read") {
            let store = try HealthStore.openForReading(at: path)
            _ = try store.read(query: QueryExecutor(ObjectQuery()), into: ObjectCollector())
        }
        answers("import") {
            let store = try HealthStore.openForWriting(at: path)
            _ = try store.importObjects(
                from: StoreObjectIndexTests.ListSource(header: ExportHeader(locale: "en_US"), objects: []),
                inputName: "empty", force: true)
        }
    }
}
