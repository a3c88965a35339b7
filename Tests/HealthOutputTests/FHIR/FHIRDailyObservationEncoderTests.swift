import Foundation
import HealthJSON
import HealthModel
import Testing
@testable import HealthOutput

/// A day of the day table as Physical Activity IG Observations, with figures worked by hand.
@Suite struct FHIRDailyObservationEncoderTests {
    static func column(_ name: String) throws -> Int { try #require(DayColumn.all.firstIndex { $0.name == name }) }

    static func observations(_ day: DayRow, columns: [Int]) throws -> (observations: [[String: Any]], encoder: FHIRDailyObservationEncoder) {
        var encoder = FHIRDailyObservationEncoder()
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        let count = encoder.write(day, columns: columns, to: out)
        let lines = try String(decoding: out.takeBytes(), as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(lines.count == count)
        return (lines, encoder)
    }

    static func code(_ observation: [String: Any]) -> String? {
        ((observation["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
    }

    @Test func aDaysStepsAreOneObservationCodedByTheImplementationGuide() throws {
        let steps = try Self.column("steps")
        var day = DayRow(date: CalendarDate(year: 2024, month: 1, day: 16))
        day.values[steps] = 4_850
        let (observations, _) = try Self.observations(day, columns: [steps])
        #expect(observations.count == 1)
        let observation = observations[0]
        #expect(observation["resourceType"] as? String == "Observation")
        #expect(observation["status"] as? String == "final")
        #expect(Self.code(observation) == "41950-7")
        #expect(observation["effectiveDateTime"] as? String == "2024-01-16")
        // The two categories the guide's PAObservationBase requires of an activity measure:
        // FHIR's `activity` and the guide's own `PhysicalActivity`.
        let categories = ((observation["category"] as? [[String: Any]]) ?? []).compactMap { ($0["coding"] as? [[String: Any]])?.first }
        #expect(categories.map { $0["code"] as? String } == ["activity", "PhysicalActivity"])
        #expect(
            categories.map { $0["system"] as? String } == [
                "http://terminology.hl7.org/CodeSystem/observation-category",
                "http://hl7.org/fhir/us/physical-activity/CodeSystem/pa-temporary-codes",
            ])
        let value = try #require(observation["valueQuantity"] as? [String: Any])
        #expect((value["value"] as? NSNumber)?.intValue == 4_850)
        #expect(value["code"] as? String == "/d")
        #expect(value["system"] as? String == "http://unitsofmeasure.org")
    }

    @Test func caloriesAreActivePlusRestingAndOnlyWithBoth() throws {
        let active = try Self.column("active_energy_kcal")
        let resting = try Self.column("resting_energy_kcal")
        let rest = try Self.column("resting_heart_rate_bpm")
        let hrv = try Self.column("hrv_sdnn_ms")
        var day = DayRow(date: CalendarDate(year: 2024, month: 4, day: 1))
        day.values[active] = 573
        day.values[resting] = 1_540
        day.values[rest] = 57
        day.values[hrv] = 41
        let (observations, encoder) = try Self.observations(day, columns: [active, resting, rest, hrv])
        // 573 + 1540 = 2113 kcal burned in the day.
        let calories = try #require(observations.first { Self.code($0) == "41979-6" })
        #expect(((calories["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.intValue == 2_113)
        #expect((calories["valueQuantity"] as? [String: Any])?["code"] as? String == "kcal/d")
        let heart = try #require(observations.first { Self.code($0) == "40443-4" })
        #expect((heart["valueQuantity"] as? [String: Any])?["code"] as? String == "/min")
        #expect(observations.count == 2)
        #expect(encoder.leftOut == ["days' hrv_sdnn_ms (no Physical Activity IG code)": 1])

        var alone = DayRow(date: CalendarDate(year: 2024, month: 4, day: 2))
        alone.values[active] = 573
        let (none, counted) = try Self.observations(alone, columns: [active, resting])
        #expect(none.isEmpty)
        #expect(counted.leftOut.values.reduce(0, +) == 1)
    }
}

/// A night of the sleep table as one Observation, its stages as components, worked by hand.
@Suite struct FHIRNightObservationEncoderTests {
    @Test func aNightIsOneObservationFromOnsetToAwakeningWithItsStages() throws {
        // Core 19,800 s + deep 3,600 s + REM 2,700 s = 26,100 s asleep; awake 900 s.
        let night = SleepNight(
            night: CalendarDate(year: 2024, month: 1, day: 16), inBed: 29_700, asleepUnspecified: 0, asleepCore: 19_800, asleepDeep: 3_600,
            asleepREM: 2_700, awake: 900, sleepStart: ExportTimestamp.parse("2024-01-15 23:00:00 +0100"),
            sleepEnd: ExportTimestamp.parse("2024-01-16 06:30:00 +0100"), sources: ["W"])
        var encoder = FHIRNightObservationEncoder()
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        let wrote = encoder.write(night, to: out)
        #expect(wrote)
        let observation = try #require(
            try JSONSerialization.jsonObject(with: Data(out.takeBytes())) as? [String: Any])
        #expect(((observation["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String == "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(observation["effectivePeriod"] as? [String: String] == ["start": "2024-01-15T23:00:00+01:00", "end": "2024-01-16T06:30:00+01:00"])
        #expect(((observation["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.intValue == 26_100)
        #expect((observation["valueQuantity"] as? [String: Any])?["code"] as? String == "s")
        let components = (observation["component"] as? [[String: Any]] ?? []).map { component -> String in
            let coding = ((component["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first
            let value = ((component["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.intValue ?? -1
            return "\(coding?["display"] as? String ?? "?")=\(value)"
        }
        #expect(components == ["in bed=29700", "asleep unspecified=0", "asleep core=19800", "asleep deep=3600", "asleep REM=2700", "awake=900"])

        var bedOnly = night
        bedOnly.sleepStart = nil
        bedOnly.sleepEnd = nil
        let skipped = encoder.write(bedOnly, to: out)
        #expect(!skipped)
        #expect(encoder.leftOut.values.reduce(0, +) == 1 && encoder.written == 1)
    }
}

/// The days' and nights' Observations and data points say whose they are: the Patient of the
/// header the read passed (`SummaryTableWriter.begin`), as the per-sample ones do.
@Suite struct SummarySubjectTests {
    static let night = SleepNight(
        night: CalendarDate(year: 2024, month: 1, day: 16), inBed: 29_700, asleepUnspecified: 0, asleepCore: 19_800, asleepDeep: 3_600,
        asleepREM: 2_700, awake: 900, sleepStart: ExportTimestamp.parse("2024-01-15 23:00:00 +0100"),
        sleepEnd: ExportTimestamp.parse("2024-01-16 06:30:00 +0100"), sources: ["W"])

    /// Every line `format` writes for a day of steps (`days`) or the night (`sleep`).
    static func lines(
        _ format: SummaryTableWriter.Format, nights: Bool, header: ExportHeader?, timeZone: TimeZone? = nil
    ) throws -> [[String: Any]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("subject-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: file) }
        let steps = try FHIRDailyObservationEncoderTests.column("steps")
        let writer = try SummaryTableWriter(
            table: nights ? .nights : .days(columns: [steps]), format: format, to: OutputDestination(file.path))
        if let header { writer.begin(header) }
        if let timeZone { writer.timeZone = timeZone }
        if nights {
            try writer.write(Self.night)
        } else {
            var day = DayRow(date: CalendarDate(year: 2024, month: 1, day: 16))
            day.values[steps] = 4_850
            try writer.write(day)
        }
        try writer.finish()
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(arguments: [false, true]) func daysAndNightsReferToThePatient(nights: Bool) throws {
        var header = ExportHeader()
        header.personID = "person-74da8f5ba603"
        let fhir = try Self.lines(.fhir, nights: nights, header: header)
        #expect(fhir.count == 1)
        #expect((fhir.first?["subject"] as? [String: String])?["reference"] == "Patient/person-74da8f5ba603")
        let omh = try Self.lines(.omh, nights: nights, header: header)
        #expect(omh.count == 1)
        #expect((omh.first?["header"] as? [String: Any])?["user_id"] as? String == "person-74da8f5ba603")
        // Without a header (or one that shows nothing): the Patient that shows nothing.
        let plain = try Self.lines(.fhir, nights: nights, header: nil)
        #expect((plain.first?["subject"] as? [String: String])?["reference"] == "Patient/" + FHIRPatient.noCharacteristicsID)
        var me = Characteristics()
        me.biologicalSex = "HKBiologicalSexMale"
        let shown = try Self.lines(.omh, nights: nights, header: ExportHeader(characteristics: me))
        #expect((shown.first?["header"] as? [String: Any])?["user_id"] as? String == FHIRPatient(me).id)
    }
}

/// The days' and nights' ids name the person: two people with an identical day or night get
/// different Observation ids and data point uuids. The expected ids are worked outside the code
/// under test: SHA-256 over `"healthport FHIR " + domain`, then per field a byte 1, its UTF-8
/// length as a big-endian UInt64 and its bytes; the first 16 bytes, version nibble 8 and variant
/// bits 10 (RFC 9562 version 8). In Python:
///
/// ```python
/// h = hashlib.sha256(b"healthport FHIR " + domain.encode())
/// for f in fields: b = f.encode(); h.update(b"\1" + struct.pack(">Q", len(b)) + b)
/// d = bytearray(h.digest()[:16]); d[6] = d[6] & 0x0F | 0x80; d[8] = d[8] & 0x3F | 0x80
/// ```
///
/// For example, `("Daily Observation", ["person-74da8f5ba603", "2024-01-16", "41950-7", "4850.0"])`.
/// The night's onset and final awakening are 2024-01-15 23:00 and 2024-01-16 06:30 at +01:00:
/// 1705356000 and 1705383000 seconds, `"1705356000 3600"` and `"1705383000 3600"`; a day's
/// Open mHealth point also names its zone, `"Europe/Paris"`, after the value.
@Suite struct SummaryIdentityTests {
    static let people = ["person-74da8f5ba603", "person-0b1c2d3e4f50"]

    /// Per person: the day's FHIR id, the night's, the day's Open mHealth uuid, the night's.
    static let expected: [String: [String]] = [
        "person-74da8f5ba603": [
            "BCA3BA8F-3EFA-88C6-A0CF-0537BC6F54B5", "36448035-A78C-81F5-BBC8-38FB1C4BE6D6",
            "5F8A9A94-5481-838A-88C5-4EAD5DD99110", "D4DEA2C5-F071-8F10-A1AB-874B3D9082DA",
        ],
        "person-0b1c2d3e4f50": [
            "96C10B98-7594-8DF6-AAA9-EE2409BE121F", "A26859ED-FB26-8B76-BC00-26BD5CA22823",
            "6FF4DD2C-5F9A-8152-A98B-80B46F4AF5D8", "ACDF00F5-108F-848F-B34A-A4F4B5A097D9",
        ],
    ]

    static func id(_ format: SummaryTableWriter.Format, nights: Bool, person: String) throws -> String? {
        var header = ExportHeader()
        header.personID = person
        // A zone named the same on every platform (Foundation names UTC `GMT` on some).
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let line = try #require(try SummarySubjectTests.lines(format, nights: nights, header: header, timeZone: paris).first)
        return format == .fhir ? line["id"] as? String : (line["header"] as? [String: Any])?["uuid"] as? String
    }

    @Test(arguments: people) func theDaysAndNightsIdsAreDerivedFromThePersonToo(person: String) throws {
        let ids = [
            try Self.id(.fhir, nights: false, person: person), try Self.id(.fhir, nights: true, person: person),
            try Self.id(.omh, nights: false, person: person), try Self.id(.omh, nights: true, person: person),
        ]
        #expect(ids == Self.expected[person])
    }

    @Test func twoPeopleWithTheSameDayHaveDifferentIds() throws {
        for format in [SummaryTableWriter.Format.fhir, .omh] {
            for nights in [false, true] {
                let ids = try Self.people.map { try Self.id(format, nights: nights, person: $0) }
                #expect(ids[0] != nil && ids[0] != ids[1], "\(format) nights: \(nights)")
            }
        }
    }
}
