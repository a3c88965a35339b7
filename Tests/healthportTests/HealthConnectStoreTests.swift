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

    /// One person, two phones: an Android export and an iPhone export in one store. Each import
    /// replaces only its own platform's objects (an export says nothing of the other phone's),
    /// and each is checked for age against its own platform's last export: the iPhone export
    /// of 2024 after the Android one of 2026 is no older export of the same phone. The days
    /// of each phone keep their totals: the Android days those worked above, the iPhone days
    /// those of the iPhone export alone.
    @Test func bothPhonesInOneStore() throws {
        let fixture = try HealthConnectFixture.make()
        let iPhone = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        func importing(_ input: String) throws -> String {
            let result = try healthport("import", input, "--store", store)
            #expect(result.status == 0, "\(result.stderrText)")
            return result.stdoutText
        }
        let counted = try healthport("info", fixture.zip, "--format", "json", "-q")
        let android = try #require((try JSONSerialization.jsonObject(with: counted.stdout) as? [String: Any])?["objectCount"] as? Int)
        #expect(try importing(fixture.zip).contains("\(android) objects, \(android) added, 0 deleted"))
        #expect(try importing(iPhone).contains("6460 objects, 6460 added, 0 deleted"))
        // The same iPhone export again: nothing new, the Android objects kept.
        #expect(try importing(iPhone).contains("nothing new"))
        let info = try healthport("info", "--store", store, "--format", "json", "-q")
        let objects = (try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])?["objectCount"] as? Int
        #expect(objects == 6460 + android)

        // The Android export again without Fit's 1,000 steps of the 7th: that record alone is
        // deleted, and the 7th is Samsung's 50 + 80 = 130.
        let fewer = try HealthConnectFixture.altered(fixture.database, sql: "DELETE FROM steps_record_table WHERE count = 1000;")
        #expect(try importing(fewer).contains("\(android - 1) objects, 0 added, 1 deleted"))
        let steps = try Self.commandSteps(store)
        #expect(steps["2026-01-05"] == 1610 && steps["2026-01-06"] == 410 && steps["2026-01-07"] == 130, "\(steps)")
        #expect(try Self.tableDays(store)["2026-01-07"]?.steps == 130)
        // The Android export, imported last, has no characteristics: the iPhone's stay the
        // store's (its header through `info --store`, and so every output of the store).
        let header = try healthport("info", "--store", store, "--format", "json", "-q")
        let characteristics = (try JSONSerialization.jsonObject(with: header.stdout) as? [String: Any])?["characteristics"] as? [String: Any]
        #expect(characteristics?["dateOfBirth"] as? String == "1985-06-15", "\(header.stdoutText.prefix(400))")
        // Each phone's imports, for the owner: the iPhone's two (one nothing new, not kept:
        // an import that changes nothing is rolled back), the Android's two.
        let imports = (try JSONSerialization.jsonObject(with: header.stdout) as? [String: Any])?["imports"] as? [[String: Any]]
        #expect(imports?.map { $0["platform"] as? String } == ["appleHealth", "healthConnect"], "\(String(describing: imports))")
        #expect(imports?.map { $0["imports"] as? Int } == [1, 2], "\(String(describing: imports))")
        #expect(imports?.first?["latestExportDate"] as? String == "2024-04-08T09:00:00+02:00")
        let text = try healthport("info", "--store", store, "-q").stdoutText
        #expect(text.contains("Imports:        Apple Health: 1 import, latest export 2024-04-08T09:00:00+02:00; Health Connect: 2 imports"), "\(text.prefix(400))")
        // A consumer bound by a policy is not told the person's import history.
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {"HKQuantityTypeIdentifierStepCount": "granted"}}"#.utf8).write(to: policy)
        let consumer = try healthport("info", "--store", store, "--policy", policy.path, "--format", "json", "-q")
        #expect(consumer.status == 0, "\(consumer.stderrText)")
        #expect((try JSONSerialization.jsonObject(with: consumer.stdout) as? [String: Any])?["imports"] == nil, "\(consumer.stdoutText.prefix(300))")
        // The iPhone's days are the iPhone export's own.
        let alone = try healthport("days", iPhone, "--format", "csv", "-q")
        let rows = parseCSV(alone.stdoutText)
        let column = try #require(rows.first?.firstIndex(of: "steps"))
        let iPhoneDays = rows.dropFirst().filter { !$0[column].isEmpty }
        #expect(iPhoneDays.count >= 10)
        for row in iPhoneDays { #expect(steps[row[0]] == Double(row[column]), "\(row[0])") }
    }

    /// Health Connect cuts each record's day at the record's own local midnight, and its
    /// records carry their own offsets: +01:00 in January, +02:00 in July for a person in
    /// Paris. A Samsung record of 120 steps from 23:30 on 10 July to 00:30 (+02:00; 21:30 to
    /// 22:30 UTC) is 60 steps on the 10th and 60 on the 11th, as Health Connect shows them;
    /// cut at the January offset it would be 22:30 to 23:30, all 120 on the 10th. The days are
    /// cut in the zone whose clock the records keep (Europe/Paris), by `days` over the export
    /// and in the store alike; January's days are the ones worked above.
    @Test func daysAreCutAtTheRecordsOwnMidnight() throws {
        let fixture = try HealthConnectFixture.make()
        let summer = try HealthConnectFixture.altered(fixture.database, sql: """
            INSERT INTO steps_record_table (uuid, last_modified_time, client_record_id, device_info_id, app_info_id, recording_method,
                start_time, start_zone_offset, end_time, end_zone_offset, local_date, count)
            VALUES (X'5a0c2d6e9b3f4a718c2e0d9f1b3a5c70', 1783722900000, 'steps-summer', 1, 1, 2,
                1783719000000, 7200, 1783722600000, 7200, 20644, 120);
            """)
        let days = try HealthConnectCommandTests.days(summer)
        #expect(Double(days["2026-07-10"]?["steps"] ?? "") == 60)
        #expect(Double(days["2026-07-11"]?["steps"] ?? "") == 60)
        #expect(Double(days["2026-01-05"]?["steps"] ?? "") == 1610)
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        try Self.importInto(store, summer)
        let steps = try Self.commandSteps(store)
        #expect(steps["2026-07-10"] == 60 && steps["2026-07-11"] == 60 && steps["2026-01-05"] == 1610, "\(steps)")
        #expect(try Self.tableDays(store)["2026-07-11"]?.steps == 60)
    }
}
