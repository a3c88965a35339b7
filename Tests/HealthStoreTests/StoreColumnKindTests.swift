import Foundation
import GRDB
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

@testable import HealthStore

/// A store whose column holds a value of another kind than healthport wrote (a blob of bytes
/// that are not UTF-8 where a name was, text where a date's seconds were): damaged, or written
/// by another program. Every read and every import either succeeds or refuses the store with a
/// `StoreError` saying it is damaged; none stops the process (GRDB's row subscript traps on
/// such a value, and the store read with it: the store fuzzer's finding, a source's version
/// as a blob, `Fuzz/store`).
@Suite struct StoreColumnKindTests {
    /// A column, and the value of another kind put in it.
    struct Damage: CustomTestStringConvertible, Sendable {
        let table: String
        let column: String
        let value: String
        /// Whether an import over the store must refuse it (the import reads this column).
        let refusesImport: Bool
        var testDescription: String { "\(table).\(column) = \(value)" }
    }

    static let damages: [Damage] = [
        Damage(table: "sources", column: "version", value: "X'FFFE00C3'", refusesImport: true),
        Damage(table: "sources", column: "name", value: "X'80'", refusesImport: true),
        Damage(table: "sample_types", column: "identifier", value: "X'C0AF'", refusesImport: true),
        Damage(table: "devices", column: "body", value: "X'FF'", refusesImport: true),
        Damage(table: "objects", column: "start_date", value: "'nine o''clock'", refusesImport: false),
        Damage(table: "objects", column: "zone", value: "'Europe/Paris'", refusesImport: false),
        Damage(table: "objects", column: "value", value: "X'00'", refusesImport: false),
        Damage(table: "objects", column: "unit", value: "X'FF'", refusesImport: false),
        Damage(table: "daily_summary", column: "sum", value: "'many'", refusesImport: false),
        Damage(table: "sleep_nights", column: "asleep_core", value: "X'FF'", refusesImport: false),
        Damage(table: "imports", column: "export_date", value: "X'FF'", refusesImport: false),
    ]

    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return false }
        return error.code == .incompatible && error.message.contains("damaged")
    }

    /// Runs `body`; a `StoreError` saying the store is damaged is an answer, any other error a
    /// failure. Returns whether it succeeded.
    static func answers(_ what: String, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch {
            #expect(isDamage(error), "\(what): \(error)")
            return false
        }
    }

    @Test(arguments: damages)
    func aColumnOfAnotherKindIsAStoreErrorNeverATrap(damage: Damage) throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        do {
            let store = try HealthStore.openForWriting(at: path)
            _ = try store.importObjects(
                from: ExportObjectSource(try ExportReader(.path(export)), query: .everything), inputName: "export.zip")
        }
        let queue = try DatabaseQueue(path: path)
        let changed = try queue.write { db in
            try db.execute(
                sql:
                    "UPDATE \(damage.table) SET \(damage.column) = \(damage.value) WHERE rowid = (SELECT min(rowid) FROM \(damage.table))"
            )
            return db.changesCount
        }
        try queue.close()
        #expect(changed > 0, "the sample's store has no row in \(damage.table)")

        let reader = try HealthStore.openForReading(at: path)
        let executor = QueryExecutor(ObjectQuery())
        _ = Self.answers("read") { _ = try reader.read(query: executor, into: ObjectCollector()) }
        _ = Self.answers("changes") {
            _ = try reader.changes(
                since: try reader.anchor(token: StoreAnchor.originText), query: executor, limit: nil, added: { _ in },
                deleted: { _, _ in })
        }
        // (A number column holding text is read as SQLite converts it, 0: no trap to avoid.)

        let writer = try HealthStore.openForWriting(at: path)
        let imported = Self.answers("import") {
            _ = try writer.importObjects(
                from: ExportObjectSource(try ExportReader(.path(export)), query: .everything), inputName: "export.zip",
                force: true)
        }
        if damage.refusesImport { #expect(!imported, "the import took a store it cannot read") }
    }
}
