import Foundation
import GRDB
import HealthTestSupport
import Testing

/// `healthport days` and `healthport workouts` end to end: the sample's rings against the
/// computed figures, the store's tables against the commands, the periods, the spreadsheet CSV.
@Suite struct DaysCommandTests {
    static func csv(_ arguments: String...) throws -> [[String: String]] {
        let result = try healthport(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The generator writes each day's rings as a Watch computes them, from the same samples:
    /// the day's active energy, its exercise minutes, its stood hours (`ExportGenerator`'s
    /// `DayTotals`). So on every day of the sample Apple's rings and healthport's figures agree,
    /// rounded as the Health app shows them; and an idle hour is never a stand hour.
    @Test func theSamplesRingsAreTheComputedFigures() throws {
        let days = try Self.csv("days", sampleZip, "--format", "csv", "-q")
        let ringed = days.filter { !($0["apple_move_kcal"] ?? "").isEmpty }
        #expect(ringed.count == 14)
        for day in ringed {
            #expect(day["active_energy_kcal"] == day["apple_move_kcal"], "\(day["date"] ?? "")")
            #expect(day["exercise_min"] == day["apple_exercise_min"], "\(day["date"] ?? "")")
            #expect(day["stand_hours"] == day["apple_stand_hours"], "\(day["date"] ?? "")")
        }
        // The sample's stand hours are 07:00 to 22:00, 16 a day, stood or idle: fewer stood.
        #expect(ringed.allSatisfy { Int($0["stand_hours"] ?? "") ?? 99 < 16 })
    }

    /// Weeks: the sample runs Monday 25 March to the night of Monday 8 April; the week of the
    /// 8th has one day (its night), marked partial. Each week's steps total is the sum of its
    /// days' steps, and its daily average that over the days with steps.
    @Test func weeksAddUpTheirDays() throws {
        let days = try Self.csv("days", sampleZip, "--type", "StepCount,SleepAnalysis", "--format", "csv", "-q")
        let weeks = try Self.csv("days", sampleZip, "--type", "StepCount,SleepAnalysis", "--period", "week", "--format", "csv", "-q")
        #expect(weeks.map { $0["first_day"] ?? "" } == ["2024-03-25", "2024-04-01", "2024-04-08"])
        #expect(weeks.map { $0["partial"] ?? "" } == ["false", "false", "true"])
        #expect(weeks.map { $0["days"] ?? "" } == ["7", "7", "1"])
        let firstWeek = days.filter { ($0["date"] ?? "") < "2024-04-01" }.compactMap { Double($0["steps"] ?? "") }
        #expect(firstWeek.count == 7)
        #expect(Double(weeks[0]["steps_total"] ?? "") == firstWeek.reduce(0, +))
        #expect(abs((Double(weeks[0]["steps_daily_average"] ?? "") ?? 0) - firstWeek.reduce(0, +) / 7) < 0.051)
        let text = try healthport("days", sampleZip, "--type", "StepCount", "--period", "week", "-q").stdoutText
        #expect(text.contains("daily averages"))
    }

    /// The store keeps the table (`days`, every column) and `days --store` gives the same rows
    /// as over the export; the workouts too (`workout_summary`).
    @Test func theStoreKeepsTheDaysAndTheWorkouts() throws {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let fromExport = try healthport("days", sampleZip, "--format", "csv", "-q")
        let fromStore = try healthport("days", "--store", store, "--format", "csv", "-q")
        #expect(fromStore.status == 0, "\(fromStore.stderrText)")
        #expect(fromStore.stdout == fromExport.stdout)
        let rows = parseCSV(fromExport.stdoutText)
        let header = try #require(rows.first)
        let queue = try DatabaseQueue(path: store)
        defer { try? queue.close() }
        let stored = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT \(header.joined(separator: ", ")) FROM days ORDER BY date").map { row -> [String] in
                Array(row.databaseValues).map { value -> String in
                    switch value.storage {
                    case .null: return ""
                    case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
                    case .int64(let n): return String(n)
                    case .string(let s): return s
                    case .blob: return "<blob>"
                    }
                }
            }
        }
        #expect(stored == Array(rows.dropFirst()))
        let workouts = try healthport("workouts", sampleZip, "--format", "csv", "-q")
        let storedWorkouts = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM workout_summary") ?? 0 }
        #expect(storedWorkouts == parseCSV(workouts.stdoutText).count - 1)
        #expect(try healthport("workouts", "--store", store, "--format", "csv", "-q").stdout == workouts.stdout)
    }

    /// The heart rate of each workout, computed from the samples during it, is what Apple's
    /// own statistics in the same export say (the generator writes them from the same minutes).
    @Test func aWorkoutsHeartRateIsAppleStatistics() throws {
        let workouts = try Self.csv("workouts", sampleZip, "--format", "csv", "-q")
        #expect(workouts.count == 5)
        let statistics = try ndjsonObjects(try healthport("convert", sampleZip, "--type", "Workout", "-q").stdout).dropFirst()
        for (listed, workout) in zip(workouts, statistics) {
            let heart = (workout["statistics"] as? [[String: Any]] ?? []).first { $0["quantityType"] as? String == "HKQuantityTypeIdentifierHeartRate" }
            let average = try #require((heart?["average"] as? NSNumber)?.doubleValue)
            let maximum = try #require((heart?["maximum"] as? NSNumber)?.doubleValue)
            #expect(Double(listed["average_heart_rate_bpm"] ?? "") == average.rounded())
            #expect(Double(listed["maximum_heart_rate_bpm"] ?? "") == maximum)
            #expect(listed["uuid"] == workout["uuid"] as? String)
        }
        #expect(workouts.map { $0["activity"] ?? "" }.contains("Traditional Strength Training"))
    }

    /// `--bom` makes a CSV Excel opens as UTF-8: the three bytes, then the header.
    @Test func aSpreadsheetCSVBeginsWithTheByteOrderMark() throws {
        let result = try healthport("sleep", sampleZip, "--format", "csv", "--bom", "-q")
        #expect(Array(result.stdout.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(String(decoding: result.stdout.dropFirst(3), as: UTF8.self).hasPrefix("night,"))
        #expect(result.stdoutText.contains("Nicolás"))
        #expect(try healthport("days", sampleZip, "--bom", "-q").status == 64)
    }

    /// `--tz` takes an offset as ISO 8601 writes one.
    @Test func anOffsetIsAZone() throws {
        let plus = try healthport("stats", sampleZip, "--type", "StepCount", "--tz", "+01:00", "--format", "csv", "-q")
        #expect(plus.status == 0, "\(plus.stderrText)")
        #expect(plus.stdout == (try healthport("stats", sampleZip, "--type", "StepCount", "--tz", "UTC+1", "--format", "csv", "-q")).stdout)
    }

    /// Under a policy that grants steps, denies heart rate and decides nothing else, `days` is the
    /// steps column alone (the undecided types are not columns, as the denied one is not), and
    /// each day's steps are the unrestricted table's; naming an undecided type is still refused.
    @Test func aPolicyGivesTheColumnsItGrants() throws {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        try Data(#"{"version": 1, "consumer": {"name": "Steps"}, "read": {"StepCount": "granted", "HeartRate": "denied"}}"#.utf8).write(to: file)
        let granted = try Self.csv("days", sampleZip, "--policy", file.path, "--format", "csv", "-q")
        let all = try Self.csv("days", sampleZip, "--format", "csv", "-q")
        #expect(Set(granted.first?.keys.map { $0 } ?? []) == ["date", "steps"])
        #expect(granted.map { $0["steps"] } == all.filter { !($0["steps"] ?? "").isEmpty }.map { $0["steps"] })
        let named = try healthport("days", sampleZip, "--policy", file.path, "--type", "SleepAnalysis", "-q")
        #expect(named.status == 77, "\(named.stderrText)")
    }
}
