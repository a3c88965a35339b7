import Foundation
import GRDB
import HealthModel
import HealthTestSupport
import Testing

@testable import HealthStore

/// The kind codes are on disk in every store: the `kind` column, the `kinds` table, and the
/// views' `WHERE o.kind = …`. They are written out here, number by number, so that a change to
/// the code's table fails this test instead of silently renumbering a person's store.
@Suite struct StoreKindCodeTests {
    static let pinned: [String: Int64] = [
        "quantitySample": 0, "categorySample": 1, "correlation": 2, "workout": 3, "activitySummary": 4,
        "clinicalRecord": 5, "audiogram": 6, "visionPrescription": 7, "electrocardiogram": 8, "unknown": 9,
    ]

    @Test func everyKindHasTheCodeItWasGivenOnDisk() {
        #expect(Dictionary(uniqueKeysWithValues: StoredKind.codes.map { ($0.name, $0.code) }) == Self.pinned)
        for (name, code) in Self.pinned {
            #expect(StoredKind.code(name) == code, "\(name)")
            #expect(StoredKind.name(code) == name, "\(code)")
        }
        // A name that is no kind has no code (it used to become `unknown`'s, silently).
        #expect(StoredKind.code("futureKind") == nil)
        #expect(StoredKind.name(10) == nil && StoredKind.name(-1) == nil)
    }

    /// Each kind of object gets its pinned code, and the name the model gives it agrees.
    @Test func objectsOfEveryKindTakeTheirCode() throws {
        // The bundled sample's objects (ECGs come from their CSV files, apart), and one ECG.
        let objects = try ObjectCollector.read(Fixtures.sampleData.appendingPathComponent("export.zip").path).objects
            + [.electrocardiogram(Electrocardiogram(file: "electrocardiograms/ecg_2024-01-01.csv"))]
        var seen = Set<String>()
        for object in objects {
            #expect(StoredKind.code(of: object) == Self.pinned[object.kindName], "\(object.kindName)")
            seen.insert(object.kindName)
        }
        // Every kind the model has.
        #expect(seen == Set(Self.pinned.keys))
    }

    /// A fresh store's `kinds` table and its views use the same numbers.
    @Test func aNewStoresKindsTableAndViewsUseThePinnedCodes() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        // A new store's file is hidden until its first import (`NewStoreFile`).
        let store = try HealthStore.openForWriting(at: path)
        let queue = try DatabaseQueue(path: try #require(store.newFile).temporaryPath)
        defer { try? queue.close() }
        let (rows, views) = try queue.read { db in
            (try Row.fetchAll(db, sql: "SELECT name, code FROM kinds"), try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'view'"))
        }
        let table: [(String, Int64)] = rows.map { row in (row["name"], row["code"]) }
        #expect(Dictionary(uniqueKeysWithValues: table) == Self.pinned)
        let codes = views.flatMap { view in
            view.components(separatedBy: "o.kind = ").dropFirst().compactMap { Int64($0.prefix { $0.isNumber }) }
        }
        #expect(!codes.isEmpty)
        // Each view names the kinds it shows by a pinned code: quantity samples 0, category 1,
        // workouts 3, activity summaries 4.
        #expect(Set(codes).isSubset(of: [0, 1, 3, 4]))
    }
}
