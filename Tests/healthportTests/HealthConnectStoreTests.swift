import Foundation
import GRDB
import HealthTestSupport
import Testing

/// A Health Connect export imported into a store totals as Health Connect does, in the
/// store's own tables (`days`, `daily_summary`) and in what the commands compute from its
/// objects (`days --store`): the store keeps each app's package (`sources.bundle_identifier`)
/// and the export's priority list (its import's header). The totals are worked by hand from
/// the fixture's rows (`make-fixture.py`); `HealthConnectCommandTests` works the same days.
@Suite struct HealthConnectStoreTests {
    static func importInto(_ store: String, _ input: String) throws {
        let result = try healthport("import", input, "--store", store, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
    }

    /// The store's `days` table: date → (steps, asleep minutes).
    static func tableDays(_ store: String) throws -> [String: (steps: Double?, asleep: Double?)] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            var days: [String: (Double?, Double?)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT date, steps, asleep_min FROM days") { days[row[0]] = (row[1], row[2]) }
            return days
        }
    }

    /// `days --store`: date → steps.
    static func commandSteps(_ store: String) throws -> [String: Double] {
        let result = try healthport("days", "--store", store, "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        guard let header = rows.first, let steps = header.firstIndex(of: "steps") else { return [:] }
        var byDate: [String: Double] = [:]
        for row in rows.dropFirst() { byDate[row[0]] = Double(row[steps]) }
        return byDate
    }

    /// Samsung Health above Fit, the pedometer off the list: 1,610, 410 and 1,130 steps
    /// (worked in `HealthConnectCommandTests.stepsEnergyAndDistanceAreHealthConnectsTotals`),
    /// never Apple's merge's 6,610 and 1,180; the night ending on the 6th asleep 435 minutes.
    /// Before the store kept the packages, its table said 6,610 and `days --store` had no
    /// steps at all (every app read as off the list).
    @Test func theStoreTotalsAsHealthConnectDoes() throws {
        let fixture = try HealthConnectFixture.make()
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        try Self.importInto(store, fixture.zip)
        let table = try Self.tableDays(store)
        #expect(table["2026-01-05"]?.steps == 1610)
        #expect(table["2026-01-06"]?.steps == 410)
        #expect(table["2026-01-07"]?.steps == 1130)
        #expect(table["2026-01-06"]?.asleep == 435)
        #expect(try Self.commandSteps(store) == ["2026-01-05": 1610, "2026-01-06": 410, "2026-01-07": 1130])
        // Each sample keeps its app's package through the store.
        let query = try healthport("query", "--store", store, "--type", "StepCount", "--format", "ndjson", "-q")
        #expect(query.status == 0, "\(query.stderrText)")
        let lines = query.stdoutText.split(separator: "\n").dropFirst()
        #expect(lines.count == 11)
        #expect(lines.allSatisfy { $0.contains(#""bundleIdentifier":""#) }, "\(query.stdoutText)")
    }

    /// The person put Fit above Samsung Health and exported again: the same records, another
    /// list. The import adds and deletes nothing, and remakes the tables by the new list:
    /// the 5th: 08:00–08:30 Samsung alone 300; 08:30–09:30 Fit's 900 (over Samsung's other
    /// half hour); Samsung 300 at noon; Fit 200; Samsung's 60 before midnight: 1,760. The
    /// 6th: Samsung's 60 after midnight, then Fit's 400 over Samsung's 350: 460. The 7th has
    /// no overlap between the two apps: 1,130 as before.
    @Test func anotherPriorityListRemakesTheTables() throws {
        let fixture = try HealthConnectFixture.make()
        let reordered = try HealthConnectFixture.altered(
            fixture.database, sql: "UPDATE health_data_category_priority_table SET app_id_priority_order = '2,1' WHERE health_data_category = 1;")
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        try Self.importInto(store, fixture.zip)
        let result = try healthport("import", reordered, "--store", store)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("86 objects, nothing new"), "\(result.stdoutText)")
        let table = try Self.tableDays(store)
        #expect(table["2026-01-05"]?.steps == 1760)
        #expect(table["2026-01-06"]?.steps == 460)
        #expect(table["2026-01-07"]?.steps == 1130)
        #expect(try Self.commandSteps(store) == ["2026-01-05": 1760, "2026-01-06": 460, "2026-01-07": 1130])
    }
}
