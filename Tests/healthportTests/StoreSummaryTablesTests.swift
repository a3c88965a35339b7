import Foundation
import GRDB
import HealthModel
import HealthTestSupport
import Testing

/// The store's `daily_summary` and `sleep_nights` after `healthport import`, against what
/// `healthport summary --store` and `healthport sleep --store` compute from the same store's
/// objects, row for row and cell for cell; and read with sqlite3, against `healthport stats`.
@Suite struct StoreSummaryTablesTests {
    /// A table's rows as the CSV prints them: numbers in their shortest form, `NULL` empty.
    static func storeRows(_ store: String, _ sql: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value -> String in
                    switch value.storage {
                    case .null: return ""
                    case .int64(let n): return String(n)
                    case .double(let d): return ExportNumber(d).text
                    case .string(let s): return s
                    case .blob: return "<blob>"
                    }
                }
            }
        }
    }

    /// Imports each export in turn (the last with `--force` when it is older), then compares
    /// both tables with the commands' CSV.
    @Test(arguments: [["export.zip"], ["export-older.zip", "export.zip"], ["export.zip", "export-older.zip"]])
    func theTablesAreTheSummaryOfTheStoresObjects(imports: [String]) throws {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        for name in imports {
            let result = try healthport("import", Fixtures.sampleData.appendingPathComponent(name).path, "--store", store, "--force", "-q")
            #expect(result.status == 0, "\(result.stderrText)")
        }
        let summary = try healthport("summary", "--store", store, "--format", "csv", "-q")
        #expect(summary.status == 0, "\(summary.stderrText)")
        let days = parseCSV(summary.stdoutText)
        #expect(days.first == ["date", "sampleType", "unit", "sum", "average", "minimum", "maximum", "duration", "inBed", "count", "sources"])
        // In the CSV's order (a column a later schema added comes last in the table).
        let stored = try Self.storeRows(
            store, "SELECT date, sample_type, unit, sum, average, minimum, maximum, duration, in_bed, count, sources FROM daily_summary ORDER BY sample_type, date")
        #expect(stored.count > 100)
        #expect(stored == days.dropFirst().sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }, "\(imports)")

        let sleep = try healthport("sleep", "--store", store, "--format", "csv", "-q")
        #expect(sleep.status == 0, "\(sleep.stderrText)")
        let nights = parseCSV(sleep.stdoutText)
        let storedNights = try Self.storeRows(
            store,
            "SELECT night, in_bed, asleep, asleep_unspecified, asleep_core, asleep_deep, asleep_rem, awake, sleep_start, sleep_end, naps, sources FROM sleep_nights ORDER BY night")
        #expect(storedNights.count >= 10)
        #expect(storedNights == Array(nights.dropFirst()), "\(imports)")
    }

    static let hasSQLite3 = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    /// What the README shows: steps per day from `daily_summary` with sqlite3 are `stats`'
    /// numbers in the store's zone, where a sum over `objects` counts the iPhone's and the
    /// Watch's steps twice.
    @Test(.enabled(if: hasSQLite3, "sqlite3 is not installed"))
    func sqlite3OverTheDailySummaryGivesStatsNumbers() throws {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        func sqlite(_ sql: String) throws -> [[String]] {
            let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-readonly", "-csv", store, sql])
            #expect(result.status == 0, "\(result.stderrText)")
            return parseCSV(result.stdoutText)
        }
        let zone = try #require(try sqlite("select value from store_info where key = 'summary_time_zone'").first?.first)
        #expect(zone == "Europe/Paris")
        let table = try sqlite(
            "select date, sum from daily_summary where sample_type = 'HKQuantityTypeIdentifierStepCount' order by date")
        // Without --tz, stats over the store cuts days in the store's zone, as its table does.
        let stats = try healthport("stats", "--store", store, "--type", "StepCount", "--format", "csv", "-q")
        #expect(stats.status == 0, "\(stats.stderrText)")
        #expect(try healthport("stats", "--store", store, "--type", "StepCount", "--tz", zone, "--format", "csv", "-q").stdout == stats.stdout)
        let statsRows = parseCSV(stats.stdoutText)
        let header = try #require(statsRows.first)
        let start = try #require(header.firstIndex(of: "startDate")), sum = try #require(header.firstIndex(of: "sum"))
        let expected = statsRows.dropFirst().map { [String($0[start].prefix(10)), $0[sum]] }
        #expect(table.count >= 14)
        #expect(table.map { [$0[0], ExportNumber(Double($0[1])!).text] } == expected)
        // The raw samples, summed per day, count the same walks twice.
        let raw = try sqlite(
            "select sum(value) from quantity_samples where type = 'HKQuantityTypeIdentifierStepCount' and date(start) = '\(table[2][0])'")
        #expect(Double(raw.first?.first ?? "0")! > Double(table[2][1])! * 1.2)
    }
}
