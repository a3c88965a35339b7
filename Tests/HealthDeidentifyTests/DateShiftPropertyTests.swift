import Foundation
import HealthModel
import HealthTestSupport
import PropertyBased
import Testing
@testable import HealthDeidentify

/// Issue 50, item 8: de-identification moves every date of every object by one amount, the
/// person's shift, whatever the object's kind and whichever field holds the date; a date it
/// cannot move is removed, never kept as it was.
///
/// The dates are found by reflection over the model's values (`Mirror`), not listed by hand:
/// a date field added to the model later is covered here without a change to this test, and one
/// the de-identifier forgets to shift fails it. The objects are random exports of the generator
/// (every kind it writes: samples, correlations, workouts with their events and statistics,
/// activity summaries, audiograms, prescriptions) and their header, each with a random key,
/// person, first day and time zone.
@Suite struct DateShiftPropertyTests {
    /// Where a date sits in a value (`workout.sample.startDate`, `events[2].date`), and the
    /// instant it names: seconds since 1970 for a timestamp, days since 1970 for a calendar day
    /// (its shift is the same number of whole weeks, in days).
    enum Instant: Equatable {
        case seconds(Int64)
        case days(Int)
    }

    static func dates(in value: Any, at path: String = "", into found: inout [String: Instant]) {
        switch value {
        case let timestamp as ExportTimestamp:
            found[path] = .seconds(timestamp.secondsSince1970)
            return
        case let day as CalendarDate:
            found[path] = .days(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day))
            return
        case let text as String:
            // A date kept as text (a device's creation date is one) must move too.
            if let timestamp = ExportTimestamp.parse(text) { found[path] = .seconds(timestamp.secondsSince1970) }
            return
        default:
            break
        }
        let mirror = Mirror(reflecting: value)
        for (index, child) in mirror.children.enumerated() {
            let label = child.label ?? "[\(index)]"
            dates(in: child.value, at: path.isEmpty ? label : "\(path).\(label)", into: &found)
        }
    }

    static let zones = ["Europe/Paris", "America/Los_Angeles", "Asia/Kolkata", "Australia/Lord_Howe", "UTC", "Pacific/Chatham"]

    @Test func everyDateOfEveryObjectMovesByThePersonsShift() async throws {
        let folder = try Fixtures.temporaryDirectory()
        await propertyCheck(
            count: 12,
            input: Gen.int(in: 1...1_000_000), Gen.int(in: 0...3650), Gen.int(in: 0...(Self.zones.count - 1)),
            Gen.int(in: 0...255).array(of: 32...32), Gen.int(in: 0...1_000_000)
        ) { seed, dayOffset, zone, secret, person in
            var options = ExportGenerator.Options()
            options.seed = UInt64(seed)
            options.days = 2
            options.firstDay = CalendarDate.civilFromDays(CalendarDate.daysFromCivil(year: 2015, month: 1, day: 1) + dayOffset)
            options.timeZone = Self.zones[zone]
            let path = folder.appendingPathComponent("export-\(seed).xml")
            guard FileManager.default.createFile(atPath: path.path, contents: nil), let handle = try? FileHandle(forWritingTo: path) else {
                Issue.record("cannot write \(path.path)")
                return
            }
            _ = ExportGenerator(options: options).writeDocument(to: handle)
            try? handle.close()
            let sink: ObjectCollector
            do {
                sink = try ObjectCollector.read(path.path)
            } catch {
                Issue.record("the generated export does not read: \(error)")
                return
            }
            try? FileManager.default.removeItem(at: path)
            guard let key = DeidentificationKey(secret: secret.map(UInt8.init)) else {
                Issue.record("a 32-byte key was refused")
                return
            }
            let deidentification = Deidentification(key: key, person: "person-\(person)")
            let weeks = deidentification.shift.weeks
            let deidentifier = Deidentifier(deidentification)
            #expect(sink.objects.count > 100)
            // The export's own date moves with the data (it would date the shift otherwise).
            let exported = sink.header.exportDate
            let sharedDate = deidentifier.header(sink.header, grantsCharacteristics: false).exportDate
            #expect(exported != nil)
            #expect(exported.map { $0.secondsSince1970 - Int64(weeks) * 7 * 86_400 } == sharedDate?.secondsSince1970)
            var kinds = Set<String>()
            for object in sink.objects {
                guard let shared = deidentifier.deidentify(object) else { continue }
                var before: [String: Instant] = [:]
                var after: [String: Instant] = [:]
                Self.dates(in: object, into: &before)
                Self.dates(in: shared, into: &after)
                kinds.insert(String(describing: object).prefix { $0 != "(" }.description)
                for (field, instant) in after {
                    switch (before[field], instant) {
                    case (.seconds(let original)?, .seconds(let moved)):
                        #expect(original - moved == Int64(weeks) * 7 * 86_400, "\(field): moved by \(original - moved) s, not \(weeks) weeks")
                    case (.days(let original)?, .days(let moved)):
                        #expect(original - moved == weeks * 7, "\(field): moved by \(original - moved) days, not \(weeks) weeks")
                    default:
                        Issue.record("\(field) holds a date the original does not have where it has it: \(instant)")
                    }
                }
            }
            // The property is only as wide as the kinds it saw.
            #expect(kinds.isSuperset(of: ["quantitySample", "categorySample", "workout", "correlation", "activitySummary"]), "\(kinds.sorted())")
        }
    }
}
