import Foundation
import GRDB
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthTables
import HealthTestSupport
import Testing

@testable import HealthStore

/// The store's `daily_summary` and `sleep_nights`, with numbers worked out by hand below: what
/// the first import writes, what later imports change (only the days they touch), the zone kept
/// from the first summary, the sources' order, and the migration of a store made before them.
@Suite struct StoreSummaryTests {
    static let watch =
        "sourceName=\"Apple Watch\" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.2&gt;\""
    static let phone =
        "sourceName=\"iPhone\" device=\"&lt;&lt;HKDevice: 0x2&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.2&gt;\""
    static let app = "sourceName=\"Sleep++\""
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heart = "HKQuantityTypeIdentifierHeartRate"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let pregnancy = "HKCategoryTypeIdentifierPregnancy"

    /// An export's records, in UTC, written as the Health app writes them.
    struct Export {
        var date = "2024-03-10 09:00:00 +0000"
        var records: [String] = []

        mutating func record(_ type: String, _ source: String, _ start: String, _ end: String, _ rest: String, zone: String? = nil) {
            let open = " <Record type=\"\(type)\" \(source) startDate=\"2024-\(start) +0000\" endDate=\"2024-\(end) +0000\" \(rest)"
            if let zone {
                records.append(open + ">\n  <MetadataEntry key=\"HKTimeZone\" value=\"\(zone)\"/>\n </Record>")
            } else {
                records.append(open + "/>")
            }
        }

        func write(to directory: URL, name: String) throws -> String {
            let text = "<HealthData locale=\"en_US\">\n <ExportDate value=\"\(date)\"/>\n" + records.joined(separator: "\n") + "\n</HealthData>\n"
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
    }

    /// The export of `SummaryCommandTests`, in UTC:
    /// - steps on 1 March: the iPhone 1000 from 10:00 to 10:20, the Watch 600 from 10:10 to
    ///   10:20. The Watch wins its ten minutes; the iPhone keeps 10:00–10:10, half its
    ///   interval: 500. The day: 600 + 500 = 1100, two samples (the raw samples add to 1600);
    /// - heart rate on 1 March: 60 and 90 from the Watch: average 75, minimum 60, maximum 90;
    /// - the night of 2 March: the Watch's stages (core 23:00–01:00, deep 01:00–02:00, REM
    ///   02:00–03:00, awake 03:00–03:15, core 03:15–06:00), the iPhone's in-bed 22:30–06:30,
    ///   and a sleep app's asleep 23:30–06:15, which adds only what no Watch stage covers:
    ///   06:00–06:15. Asleep 7 h (25,200 s): core 4 h 45 (17,100 s), deep and REM 1 h each,
    ///   unspecified 15 min (900 s); awake 15 min; in bed 8 h (28,800 s); 23:00 to 06:15.
    static func firstExport() -> Export {
        var export = Export()
        export.record(steps, phone, "03-01 10:00:00", "03-01 10:20:00", "unit=\"count\" value=\"1000\"")
        export.record(steps, watch, "03-01 10:10:00", "03-01 10:20:00", "unit=\"count\" value=\"600\"")
        export.record(heart, watch, "03-01 12:00:00", "03-01 12:00:00", "unit=\"count/min\" value=\"60\"")
        export.record(heart, watch, "03-01 13:00:00", "03-01 13:00:00", "unit=\"count/min\" value=\"90\"")
        export.record(sleep, phone, "03-01 22:30:00", "03-02 06:30:00", "value=\"HKCategoryValueSleepAnalysisInBed\"")
        export.record(sleep, watch, "03-01 23:00:00", "03-02 01:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepCore\"")
        export.record(sleep, watch, "03-02 01:00:00", "03-02 02:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepDeep\"")
        export.record(sleep, watch, "03-02 02:00:00", "03-02 03:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepREM\"")
        export.record(sleep, watch, "03-02 03:00:00", "03-02 03:15:00", "value=\"HKCategoryValueSleepAnalysisAwake\"")
        export.record(sleep, watch, "03-02 03:15:00", "03-02 06:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepCore\"")
        export.record(sleep, app, "03-01 23:30:00", "03-02 06:15:00", "value=\"HKCategoryValueSleepAnalysisAsleepUnspecified\"")
        return export
    }

    static func importing(_ path: String, into store: String, force: Bool = false) throws -> HealthStore.ImportSummary {
        try HealthStore.openForWriting(at: store).importObjects(
            from: ExportObjectSource(try ExportReader(.path(path)), query: .everything), inputName: "export.xml", force: force)
    }

    /// Every row of a table with its rowid, keyed by `key`: a row an import rewrote gets a new
    /// rowid, one it left alone keeps its own.
    static func rows(_ store: String, _ table: String, key: String) throws -> [String: Row] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT rowid, * FROM \(table)").map { ($0[key] as String, $0) })
        }
    }

    static func days(_ store: String) throws -> [String: Row] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT rowid, * FROM daily_summary").map {
                    (($0["sample_type"] as String) + " " + ($0["date"] as String), $0)
                })
        }
    }

    static func value(_ store: String, _ sql: String) throws -> DatabaseValue {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in try DatabaseValue.fetchOne(db, sql: sql) ?? .null }
    }

    @Test func theFirstImportWritesTheMergedDayAndTheResolvedNight() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        _ = try Self.importing(try Self.firstExport().write(to: directory, name: "export.xml"), into: store)
        let days = try Self.days(store)
        let stepDay = try #require(days["\(Self.steps) 2024-03-01"])
        #expect(stepDay["sum"] as Double? == 1100)
        #expect(stepDay["count"] as Int == 2)
        #expect(stepDay["unit"] as String? == "count")
        #expect(stepDay["sources"] as String == #"["Apple Watch","iPhone"]"#)
        #expect(stepDay["average"] as Double? == nil && stepDay["duration"] as Double? == nil)
        let heartDay = try #require(days["\(Self.heart) 2024-03-01"])
        #expect(heartDay["minimum"] as Double? == 60 && heartDay["maximum"] as Double? == 90)
        #expect(abs((heartDay["average"] as Double? ?? 0) - 75) < 1e-9)
        #expect(heartDay["sum"] as Double? == nil && heartDay["count"] as Int == 2)
        // Sleep's day is the night that ends that morning (`CategoryDayMeasure.night`), not
        // the time its samples cover: the night of 2 March, 7 h asleep (25,200 s, the night's
        // row below) in 8 h in bed (28,800 s); no row on 1 March, where its in-bed time begins.
        #expect(days["\(Self.sleep) 2024-03-01"] == nil)
        #expect(days["\(Self.sleep) 2024-03-02"]?["duration"] as Double? == 25_200)
        #expect(days["\(Self.sleep) 2024-03-02"]?["in_bed"] as Double? == 28_800)
        #expect(days.count == 3)

        let nights = try Self.rows(store, "sleep_nights", key: "night")
        #expect(nights.count == 1)
        let night = try #require(nights["2024-03-02"])
        #expect(night["asleep"] as Double == 25_200)
        #expect(night["asleep_core"] as Double == 17_100)
        #expect(night["asleep_deep"] as Double == 3_600 && night["asleep_rem"] as Double == 3_600)
        #expect(night["asleep_unspecified"] as Double == 900)
        #expect(night["awake"] as Double == 900)
        #expect(night["in_bed"] as Double? == 28_800)
        #expect(night["sleep_start"] as String? == "2024-03-01T23:00:00+00:00")
        #expect(night["sleep_end"] as String? == "2024-03-02T06:15:00+00:00")
        #expect(night["sources"] as String == #"["Apple Watch","Sleep++","iPhone"]"#)
        // No sample names a zone: the export's offset, +00:00, kept for later imports.
        #expect(try Self.value(store, "SELECT value FROM store_info WHERE key = 'summary_time_zone'") == "GMT".databaseValue)
    }

    /// A later export adds steps on 5 March (the iPhone, 400 from 08:00 to 08:10): that day's row
    /// is written, the rows of 4 and 6 March (a day on either side) are looked at and stay absent,
    /// and every other row is left as it was, down to its rowid.
    @Test func anImportAddingADayWritesOnlyThatDay() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        var export = Self.firstExport()
        _ = try Self.importing(try export.write(to: directory, name: "first.xml"), into: store)
        let daysBefore = try Self.days(store)
        let nightsBefore = try Self.rows(store, "sleep_nights", key: "night")

        export.date = "2024-03-11 09:00:00 +0000"
        export.record(Self.steps, Self.phone, "03-05 08:00:00", "03-05 08:10:00", "unit=\"count\" value=\"400\"")
        let summary = try Self.importing(try export.write(to: directory, name: "second.xml"), into: store)
        #expect(summary.added == 1 && summary.deleted == 0)
        let days = try Self.days(store)
        let added = try #require(days["\(Self.steps) 2024-03-05"])
        #expect(added["sum"] as Double? == 400 && added["count"] as Int == 1 && added["sources"] as String == #"["iPhone"]"#)
        #expect(days.count == daysBefore.count + 1)
        for (key, row) in daysBefore { #expect(days[key] == row, "\(key)") }
        #expect(try Self.rows(store, "sleep_nights", key: "night") == nightsBefore)
    }

    /// A later export without the Watch's steps of 1 March: that day is the iPhone's alone (1000,
    /// one sample); heart rate's and sleep's rows are left alone. Then one without the sleep
    /// app's interval: the night loses its 06:00–06:15 (asleep 24,300 s, unspecified 0) and the
    /// app, and sleep's day of 2 March, the night's, is rewritten with it.
    @Test func anImportDeletingSamplesRewritesOnlyTheirDays() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        var export = Self.firstExport()
        _ = try Self.importing(try export.write(to: directory, name: "first.xml"), into: store)
        let daysBefore = try Self.days(store)
        let nightsBefore = try Self.rows(store, "sleep_nights", key: "night")

        export.date = "2024-03-11 09:00:00 +0000"
        export.records.remove(at: 1)
        #expect(try Self.importing(try export.write(to: directory, name: "second.xml"), into: store).deleted == 1)
        var days = try Self.days(store)
        let stepDay = try #require(days["\(Self.steps) 2024-03-01"])
        #expect(stepDay["sum"] as Double? == 1000 && stepDay["count"] as Int == 1 && stepDay["sources"] as String == #"["iPhone"]"#)
        #expect(stepDay["rowid"] as Int64 != daysBefore["\(Self.steps) 2024-03-01"]?["rowid"] as Int64?)
        for (key, row) in daysBefore where !key.hasPrefix(Self.steps) { #expect(days[key] == row, "\(key)") }
        #expect(try Self.rows(store, "sleep_nights", key: "night") == nightsBefore)

        export.date = "2024-03-12 09:00:00 +0000"
        export.records.removeLast()
        #expect(try Self.importing(try export.write(to: directory, name: "third.xml"), into: store).deleted == 1)
        let night = try #require(try Self.rows(store, "sleep_nights", key: "night")["2024-03-02"])
        #expect(night["asleep"] as Double == 24_300 && night["asleep_unspecified"] as Double == 0)
        #expect(night["sleep_end"] as String? == "2024-03-02T06:00:00+00:00")
        #expect(night["sources"] as String == #"["Apple Watch","iPhone"]"#)
        let previous = days
        days = try Self.days(store)
        #expect(days["\(Self.sleep) 2024-03-02"]?["duration"] as Double? == 24_300)
        #expect(days["\(Self.steps) 2024-03-01"] == previous["\(Self.steps) 2024-03-01"])

        // Every sleep sample gone: the night and sleep's days go with them.
        export.date = "2024-03-13 09:00:00 +0000"
        export.records.removeAll { $0.contains(Self.sleep) }
        _ = try Self.importing(try export.write(to: directory, name: "fourth.xml"), into: store)
        #expect(try Self.rows(store, "sleep_nights", key: "night").isEmpty)
        #expect(try Self.days(store).keys.sorted() == ["\(Self.heart) 2024-03-01", "\(Self.steps) 2024-03-01"])
    }

    /// A zone the first summary took from samples is kept: the first export's steps name Paris,
    /// and a later one whose samples all name New York does not move the days. Its 300 steps at
    /// 02:00–02:20 UTC on 6 March (03:00 in Paris, 21:00 on 5 March in New York) count for 6
    /// March.
    @Test func aZoneTheSamplesNamedIsKept() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        var first = Export()
        first.record(Self.steps, Self.phone, "03-01 10:00:00", "03-01 10:20:00", "unit=\"count\" value=\"1000\"", zone: "Europe/Paris")
        _ = try Self.importing(try first.write(to: directory, name: "first.xml"), into: store)
        #expect(try Self.value(store, "SELECT value FROM store_info WHERE key = 'summary_time_zone'") == "Europe/Paris".databaseValue)
        var later = first
        later.date = "2024-03-11 09:00:00 -0500"
        later.record(Self.steps, Self.phone, "03-06 02:00:00", "03-06 02:20:00", "unit=\"count\" value=\"300\"", zone: "America/New_York")
        later.record(Self.heart, Self.watch, "03-06 03:00:00", "03-06 03:00:00", "unit=\"count/min\" value=\"70\"", zone: "America/New_York")
        _ = try Self.importing(try later.write(to: directory, name: "second.xml"), into: store)
        #expect(try Self.value(store, "SELECT value FROM store_info WHERE key = 'summary_time_zone'") == "Europe/Paris".databaseValue)
        let days = try Self.days(store)
        #expect(days["\(Self.steps) 2024-03-06"]?["sum"] as Double? == 300)
        #expect(days["\(Self.steps) 2024-03-05"] == nil)
    }

    /// A zone that was only an offset moves to the zone a later import's samples name: the
    /// first export names none (its offset, +00:00, is used: `GMT`), the second's samples all
    /// name New York. The store moves there and every table is remade: the 300 steps at 02:00–
    /// 02:20 UTC on 6 March are 21:00 on 5 March in New York, and count for 5 March (an offset
    /// kept for ever cut half a year's days an hour off). A new store from the second export
    /// alone decides New York too, and has the same row.
    @Test func anOffsetMovesToTheZoneALaterImportNames() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        var export = Self.firstExport()
        _ = try Self.importing(try export.write(to: directory, name: "first.xml"), into: store)
        #expect(try Self.value(store, "SELECT value FROM store_info WHERE key = 'summary_time_zone'") == "GMT".databaseValue)
        export.date = "2024-03-11 09:00:00 -0500"
        for hour in ["02", "03", "04"] {
            export.record(
                Self.heart, Self.watch, "03-06 \(hour):00:00", "03-06 \(hour):00:00", "unit=\"count/min\" value=\"70\"", zone: "America/New_York")
        }
        export.record(Self.steps, Self.phone, "03-06 02:00:00", "03-06 02:20:00", "unit=\"count\" value=\"300\"", zone: "America/New_York")
        let summary = try Self.importing(try export.write(to: directory, name: "second.xml"), into: store)
        #expect(summary.summaryTimeZone == "America/New_York")
        #expect(try Self.value(store, "SELECT value FROM store_info WHERE key = 'summary_time_zone'") == "America/New_York".databaseValue)
        let days = try Self.days(store)
        #expect(days["\(Self.steps) 2024-03-05"]?["sum"] as Double? == 300)
        #expect(days["\(Self.steps) 2024-03-06"] == nil)
        let other = directory.appendingPathComponent("other.sqlite").path
        _ = try Self.importing(try export.write(to: directory, name: "second.xml"), into: other)
        #expect(try Self.value(other, "SELECT value FROM store_info WHERE key = 'summary_time_zone'") == "America/New_York".databaseValue)
        #expect(try Self.days(other)["\(Self.steps) 2024-03-05"]?["sum"] as Double? == 300)
    }

    /// Two apps (the same tier) count the same minutes on 2 March: app A 1000 steps 10:00–10:20,
    /// app B 600 steps 10:10–10:20 (written before A's). The source met first in the store wins
    /// the overlap:
    /// - A first (its sample of 20 February comes first): the day is A's 1000, B covered;
    /// - a later import adds app C's 50 steps at 15:00 that day: 1050. The day is recomputed
    ///   from its own samples, where B comes before A; ranked in the store's order, A still wins;
    /// - then A's sample of 20 February is deleted: B comes first in the store, and the day is
    ///   A's 10:00–10:10 (500), B's 600 and C's 50: 1150. The deletion touches 20 February
    ///   only; the store sees the order change and recomputes every day, as a summary of the
    ///   whole store gives them.
    @Test func theSourceMetFirstInTheStoreWinsAnOverlap() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        var export = Export()
        export.record(Self.steps, "sourceName=\"App A\"", "02-20 09:00:00", "02-20 09:10:00", "unit=\"count\" value=\"50\"")
        export.record(Self.steps, "sourceName=\"App B\"", "03-02 10:10:00", "03-02 10:20:00", "unit=\"count\" value=\"600\"")
        export.record(Self.steps, "sourceName=\"App A\"", "03-02 10:00:00", "03-02 10:20:00", "unit=\"count\" value=\"1000\"")
        _ = try Self.importing(try export.write(to: directory, name: "first.xml"), into: store)
        #expect(try Self.days(store)["\(Self.steps) 2024-03-02"]?["sum"] as Double? == 1000)

        export.date = "2024-03-11 09:00:00 +0000"
        export.record(Self.steps, "sourceName=\"App C\"", "03-02 15:00:00", "03-02 15:10:00", "unit=\"count\" value=\"50\"")
        #expect(try Self.importing(try export.write(to: directory, name: "second.xml"), into: store).added == 1)
        #expect(try Self.days(store)["\(Self.steps) 2024-03-02"]?["sum"] as Double? == 1050)

        export.date = "2024-03-12 09:00:00 +0000"
        export.records.removeFirst()
        #expect(try Self.importing(try export.write(to: directory, name: "third.xml"), into: store).deleted == 1)
        let days = try Self.days(store)
        #expect(days["\(Self.steps) 2024-03-02"]?["sum"] as Double? == 1150)
        #expect(days["\(Self.steps) 2024-02-20"] == nil)
    }

    @Test func anImportThatChangesNothingWritesNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        let path = try Self.firstExport().write(to: directory, name: "export.xml")
        _ = try Self.importing(path, into: store)
        let days = try Self.days(store)
        let nights = try Self.rows(store, "sleep_nights", key: "night")
        let statistics = try HealthStore.openForReading(at: store).statistics()
        #expect(try Self.importing(path, into: store).unchanged)
        #expect(try HealthStore.openForReading(at: store).statistics() == statistics)
        #expect(try Self.days(store) == days)
        #expect(try Self.rows(store, "sleep_nights", key: "night") == nights)
    }

    /// A store made before the summary tables (without schema v4) is read as it is, and the
    /// next opening for an import makes the tables from its rows: the same rows the first
    /// import of the same exports writes while reading them.
    @Test func aStoreMadeBeforeTheTablesGetsThemFromItsRows() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        _ = try Self.importing(Fixtures.sampleData.appendingPathComponent("export-older.zip").path, into: store)
        _ = try Self.importing(Fixtures.sampleData.appendingPathComponent("export.zip").path, into: store)
        let days = try Self.rowsWithoutRowid(store, "SELECT * FROM daily_summary ORDER BY sample_type, date")
        let nights = try Self.rowsWithoutRowid(store, "SELECT * FROM sleep_nights ORDER BY night")
        #expect(days.count > 100 && nights.count > 10)

        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                DROP TABLE daily_summary; DROP TABLE sleep_nights; DROP TABLE summary_sources; DROP TABLE days;
                DROP TABLE workout_summary;
                DELETE FROM store_info WHERE key IN ('summary_time_zone', 'summary_rules');
                DELETE FROM grdb_migrations WHERE identifier IN ('v4', 'v6');
                """)
        }
        try queue.close()
        let reader = try HealthStore.openForReading(at: store)
        #expect(try reader.statistics().imports == 2)
        _ = try HealthStore.openForWriting(at: store)
        #expect(try Self.rowsWithoutRowid(store, "SELECT * FROM daily_summary ORDER BY sample_type, date") == days)
        #expect(try Self.rowsWithoutRowid(store, "SELECT * FROM sleep_nights ORDER BY night") == nights)
        #expect(try Self.value(store, "SELECT value FROM store_info WHERE key = 'summary_time_zone'") == "Europe/Paris".databaseValue)
    }

    /// Tables made by other rules than this healthport's (`store_info.summary_rules`) are made
    /// anew, whole, the first time the store is opened, by a reading command too: here rows an
    /// older healthport wrote by its rules (steps 1600, the two sources added; a night of 8 h
    /// asleep, time covered) are replaced by this one's (1100; 7 h, as worked out in
    /// `firstExport`), and the rules recorded. The same rules again change nothing.
    @Test func tablesMadeByOlderRulesAreMadeAnewOnFirstUse() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        _ = try Self.importing(try Self.firstExport().write(to: directory, name: "export.xml"), into: store)
        #expect(Int.fromDatabaseValue(try Self.value(store, "SELECT CAST(value AS INTEGER) FROM store_info WHERE key = 'summary_rules'")) == 2)
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE daily_summary SET sum = 1600 WHERE sample_type = '\(Self.steps)';
                UPDATE sleep_nights SET asleep = 28800;
                DELETE FROM days;
                UPDATE store_info SET value = '1' WHERE key = 'summary_rules';
                """)
        }
        try queue.close()

        let reader = try HealthStore.openForReading(at: store)
        #expect(try reader.statistics().objects == 11)
        #expect(try Self.days(store)["\(Self.steps) 2024-03-01"]?["sum"] as Double? == 1100)
        #expect(Double.fromDatabaseValue(try Self.value(store, "SELECT asleep FROM sleep_nights WHERE night = '2024-03-02'")) == 25200)
        #expect(Double.fromDatabaseValue(try Self.value(store, "SELECT steps FROM days WHERE date = '2024-03-01'")) == 1100)
        #expect(Int.fromDatabaseValue(try Self.value(store, "SELECT CAST(value AS INTEGER) FROM store_info WHERE key = 'summary_rules'")) == 2)

        let before = try Self.days(store)
        _ = try HealthStore.openForReading(at: store)
        #expect(try Self.days(store) == before)
    }

    /// Found by fuzzing (`Fuzz/store`): an older store with an object whose JSON is damaged.
    /// Its upgrade makes the tables without that object (the Watch's steps: 1 March is the
    /// iPhone's 1000) instead of refusing, and a later import that no longer holds it turns it
    /// into a tombstone as before, the day unchanged.
    @Test func aDamagedObjectIsLeftOutOfTheSummaryAndDoesNotStopTheUpgrade() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        var export = Self.firstExport()
        _ = try Self.importing(try export.write(to: directory, name: "first.xml"), into: store)
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in
            try db.execute(sql: """
                DROP TABLE daily_summary; DROP TABLE sleep_nights; DROP TABLE summary_sources; DROP TABLE days;
                DROP TABLE workout_summary;
                DELETE FROM store_info WHERE key IN ('summary_time_zone', 'summary_rules');
                DELETE FROM grdb_migrations WHERE identifier IN ('v4', 'v6');
                UPDATE objects SET zone = NULL, body = '{"startDate":"2024-03-01T10:10:00+00:00","quanti'
                WHERE type_id = (SELECT id FROM sample_types WHERE identifier = 'HKQuantityTypeIdentifierStepCount')
                    AND source_id IN (SELECT id FROM sources WHERE name = 'Apple Watch');
                """)
            #expect(db.changesCount == 1)
        }
        try queue.close()
        _ = try HealthStore.openForWriting(at: store)
        let stepDay = try #require(try Self.days(store)["\(Self.steps) 2024-03-01"])
        #expect(stepDay["sum"] as Double? == 1000 && stepDay["sources"] as String == #"["iPhone"]"#)
        #expect(try Self.rows(store, "sleep_nights", key: "night")["2024-03-02"]?["asleep"] as Double? == 25_200)

        export.date = "2024-03-11 09:00:00 +0000"
        export.records.remove(at: 1)
        #expect(try Self.importing(try export.write(to: directory, name: "second.xml"), into: store).deleted == 1)
        #expect(try Self.days(store)["\(Self.steps) 2024-03-01"]?["sum"] as Double? == 1000)
    }

    /// Found by fuzzing too: a heart rate from 1012 to 2024 made a row for each of its
    /// 369,627 days. A sample spanning more than ten years is left out (as `healthport summary`
    /// leaves it out, with a warning); a pregnancy of ten calendar years, 2014-03-09 to
    /// 2024-03-09 (3,653 days, under the bound of 3,660), still counts: a row for each day (a
    /// timed category type's day is the time it covers, `CategoryDayMeasure.timeAndCount`).
    @Test func aSampleSpanningMoreThanTenYearsIsLeftOut() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        var export = Export()
        export.record(Self.heart, Self.watch, "03-01 00:00:00", "03-01 00:00:00", "unit=\"count/min\" value=\"60\"")
        export.records.append(
            " <Record type=\"\(Self.heart)\" \(Self.watch) startDate=\"1012-01-01 09:00:00 +0000\" endDate=\"2024-01-01 09:00:00 +0000\" unit=\"count/min\" value=\"72\"/>")
        export.records.append(
            " <Record type=\"\(Self.pregnancy)\" \(Self.phone) startDate=\"2014-03-09 00:00:00 +0000\" endDate=\"2024-03-09 00:00:00 +0000\" value=\"HKCategoryValueNotApplicable\"/>")
        _ = try Self.importing(try export.write(to: directory, name: "export.xml"), into: store)
        let days = try Self.days(store)
        #expect(days.filter { $0.key.hasPrefix(Self.heart) }.map(\.key) == ["\(Self.heart) 2024-03-01"])
        #expect(days["\(Self.heart) 2024-03-01"]?["average"] as Double? == 60)
        #expect(days.filter { $0.key.hasPrefix(Self.pregnancy) }.count == 3_653)
        #expect(days["\(Self.pregnancy) 2014-03-09"]?["duration"] as Double? == 86_400)
    }

    static func rowsWithoutRowid(_ store: String, _ sql: String) throws -> [Row] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql) }
    }

    /// The store's columns are the CSV's (`healthport-formats(5)`), in snake case.
    @Test func theColumnsAreTheCSVsInSnakeCase() throws {
        #expect(SummaryTableCells.columns(.daily).map(SummaryRows.snakeCase) == [
            "date", "sample_type", "unit", "sum", "average", "minimum", "maximum", "duration", "in_bed", "count", "sources",
        ])
        #expect(SummaryTableCells.columns(.nights).map(SummaryRows.snakeCase) == [
            "night", "in_bed", "asleep", "asleep_unspecified", "asleep_core", "asleep_deep", "asleep_rem", "awake", "sleep_start",
            "sleep_end", "naps", "sources",
        ])
        #expect(SummaryTableCells.columns(.workouts).map(SummaryRows.snakeCase) == [
            "uuid", "date", "start", "end", "activity", "activity_type", "duration_min", "distance_km", "active_energy_kcal",
            "average_heart_rate_bpm", "maximum_heart_rate_bpm", "source",
        ])
    }

    /// The stored tables have exactly the columns the import writes (their migration's SQL is
    /// literal, the rows come from `TableRows`): a column added to one and not the other fails
    /// here, not in a person's import.
    @Test func theStoredTablesHaveTheWrittenColumns() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        // A new store's file is hidden until its first import (`NewStoreFile`).
        let opened = try HealthStore.openForWriting(at: store)
        let queue = try DatabaseQueue(path: try #require(opened.newFile).temporaryPath)
        defer { try? queue.close() }
        for (table, written) in [
            ("daily_summary", SummaryTableCells.columns(.daily)), ("sleep_nights", SummaryTableCells.columns(.nights)),
            ("workout_summary", SummaryTableCells.columns(.workouts)),
            ("days", SummaryTableCells.columns(.days(columns: Array(DayColumn.all.indices)))),
        ] {
            let stored = try queue.read { db in try db.columns(in: table).map(\.name) }
            #expect(Set(stored) == Set(written.map(SummaryRows.snakeCase)), "\(table)")
        }
    }

    @Test func changedDaysAreWidenedAndMerged() {
        var changes = SummaryChanges()
        // 1 March 2024 is day 19,783 since 1970.
        let march1 = Int64(19_783 * 86_400)
        changes.touch(type: "A", start: march1 + 3_600, end: march1 + 7_200)
        changes.touch(type: "A", start: march1 + 86_400 * 10, end: march1 + 86_400 * 10)
        changes.touch(type: "B", start: march1 - 1, end: march1 + 86_400)
        changes.touch(type: "A", start: march1 + 86_400 * 3, end: march1 + 86_400 * 3)
        let ranges = changes.dayRanges()
        #expect(ranges["A"] == [19_782...19_787, 19_792...19_794])
        #expect(ranges["B"] == [19_781...19_785])
        #expect(SummaryChanges.day(of: -1) == -1 && SummaryChanges.day(of: -86_400) == -1 && SummaryChanges.day(of: 0) == 0)
    }
}
