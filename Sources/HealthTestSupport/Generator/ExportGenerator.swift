import Foundation
import HealthModel

/// Writes synthetic Apple Health exports with known answers: every element kind, the quirks
/// of docs/reference/export-format.md, and a manifest of what was written (objects per type), so tests and
/// benchmarks can check counts exactly. Deterministic: one seed, one export, byte for byte.
///
/// Records are grouped by type, as the Health app writes them; within a type, by day.
public struct ExportGenerator {
    public struct Options: Sendable {
        public var seed: UInt64 = 1
        /// Days of data.
        public var days: Int = 30
        /// First day.
        public var firstDay = CalendarDate(year: 2024, month: 1, day: 1)
        /// Multiplies the per-day record counts (1 ≈ 400 records a day).
        public var density: Int = 1
        /// Write the broken iOS 16 (version 12) DTD instead of the version 14 one (quirk Q1).
        public var brokenDTD = false
        /// Put characters XML forbids into one food name (quirk Q2).
        public var forbiddenCharacters = true
        /// The person's zone: where the days and nights happen (local times are wall-clock times
        /// there, so a day across a change of clock has 23 or 25 hours), and the zone the
        /// sleep and workouts name in `HKTimeZone`. Every date is printed with the zone's offset
        /// at the export date (quirk Q3: one offset for every date, an hour off for half the
        /// year).
        public var timeZone = "Europe/Paris"

        public init() {}

        /// The bundled sample (`SampleData/export.zip`): two weeks across the change to summer
        /// time in Paris (31 March 2024).
        public static func sample(days: Int) -> Options {
            var options = Options()
            options.days = days
            options.firstDay = CalendarDate(year: 2024, month: 3, day: 25)
            return options
        }
    }

    /// What was written: top-level objects per type identifier (as healthport reports them).
    public struct Manifest: Codable, Sendable, Equatable {
        public var objectsByType: [String: Int] = [:]
        public var objectCount: Int { objectsByType.values.reduce(0, +) }
        /// Top-level records that are exact copies of an earlier one.
        public var exactDuplicates = 0
        /// Bytes the pre-filter must replace.
        public var forbiddenBytes = 0
        public var routeFiles: [String] = []
        public var clinicalFiles: [String] = []
        public var electrocardiogramFiles: [String] = []

        mutating func count(_ type: String, _ n: Int = 1) { objectsByType[type, default: 0] += n }
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    // MARK: Output plumbing

    /// Buffered text output to a file handle.
    final class Writer {
        private let handle: FileHandle
        private var buffer: [UInt8] = []

        init(_ handle: FileHandle) {
            self.handle = handle
            buffer.reserveCapacity(1 << 20)
        }

        func callAsFunction(_ text: String) {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 20 { flush() }
        }

        func bytes(_ bytes: [UInt8]) {
            buffer.append(contentsOf: bytes)
        }

        func flush() {
            handle.write(Data(buffer))
            buffer.removeAll(keepingCapacity: true)
        }
    }

    // MARK: Dates

    private var zone: TimeZone { TimeZone(identifier: options.timeZone) ?? TimeZone(secondsFromGMT: 0)! }

    /// The instant of a wall-clock time `second` seconds after midnight of day `day` (more than a
    /// day's seconds runs into the next days) in the person's zone; a time a change of clock
    /// skips is read an hour later, as a clock would show it.
    private func instant(day: Int, second: Int) -> Int64 {
        let local = Int64(options.firstDay.dayNumber + day) * 86_400 + Int64(second)
        let first = local - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local))))
        return local - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(first))))
    }

    /// The offset every date is printed with: the zone's at the export date.
    private var exportOffset: Int32 {
        Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant(day: options.days, second: 9 * 3600)))))
    }

    private func timestamp(day: Int, second: Int) -> ExportTimestamp {
        ExportTimestamp(secondsSince1970: instant(day: day, second: second), utcOffsetSeconds: exportOffset)
    }

    /// The local date of day `day`.
    private func calendarDate(_ day: Int) -> CalendarDate { CalendarDate.civilFromDays(options.firstDay.dayNumber + day) }

    private func date(day: Int, second: Int) -> String { timestamp(day: day, second: second).exportText }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    private func watchDevice(_ rng: inout SplitMix64) -> String {
        // The address differs on every record, as in real exports.
        let address = String(rng.next() & 0xFF_FFFF_FFFF, radix: 16)
        return Self.escape("<<HKDevice: 0x\(address)>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.2, creation date:2024-02-11 10:46:10 +0000>")
    }

    private func phoneDevice(_ rng: inout SplitMix64) -> String {
        let address = String(rng.next() & 0xFF_FFFF_FFFF, radix: 16)
        return Self.escape("<<HKDevice: 0x\(address)>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.2>")
    }

    static let watchSource = "Apple Watch de Nicolás"
    static let phoneSource = "Simon’s iPhone"

    private func rng(_ salt: String, _ day: Int) -> SplitMix64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in salt.utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return SplitMix64(seed: options.seed ^ hash ^ (UInt64(day) &* 0x9E37_79B9))
    }

    // MARK: The document

    /// Writes `export.xml` to a file handle and returns the manifest.
    public func writeDocument(to handle: FileHandle) -> Manifest {
        let w = Writer(handle)
        var manifest = Manifest()
        w("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        w(options.brokenDTD ? Self.brokenDTD : Self.dtd)
        w("<HealthData locale=\"en_US\">\n")
        w(" <ExportDate value=\"\(date(day: options.days, second: 9 * 3600))\"/>\n")
        w(" <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1985-06-15\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeAPositive\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeIII\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n")
        let d = options.density
        var totals = DayTotals(days: options.days)

        // Quantity types, grouped by type. Heart rate through the day, and every minute of a
        // workout (what a workout's average is computed from).
        heartRateRecords(w, &manifest)
        // Steps: every walk the iPhone counted, the Watch counted too (the phone's record
        // overlaps the Watch's before it), so summing records double counts (healthport stats).
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierStepCount", unit: "count", perDay: 24 * d, source: .both, overlapping: true) { rng, _ in
            String(Int(rng.next() % 1500))
        }
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierActiveEnergyBurned", unit: "kcal", perDay: 100 * d, source: .watch) { rng, day in
            let value = Double(rng.next() % 12_000) / 1000
            totals.move[day] += value
            return String(format: "%.3f", value)
        }
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierBasalEnergyBurned", unit: "kcal", perDay: 50 * d, source: .watch) { rng, _ in
            String(format: "%.3f", Double(rng.next() % 5_000) / 1000 + 0.5)
        }
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "km", perDay: 40 * d, source: .both) { rng, _ in
            // Some values in scientific notation (quirk Q11).
            rng.next() % 50 == 0 ? "5.91532e-05" : String(format: "%.5f", Double(rng.next() % 60_000) / 100_000)
        }
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierFlightsClimbed", unit: "count", perDay: 3, source: .phone) { rng, _ in
            String(1 + rng.next() % 4)
        }
        exerciseRecords(w, &manifest, totals: &totals)
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierOxygenSaturation", unit: "%", perDay: 4, source: .watch) { rng, _ in
            String(format: "%.2f", 0.94 + Double(rng.next() % 6) / 100)
        }
        dailyRecord(w, &manifest, type: "HKQuantityTypeIdentifierRestingHeartRate", unit: "count/min", start: 300, end: 85_800) { rng in
            String(52 + rng.next() % 9)
        }
        dailyRecord(w, &manifest, type: "HKQuantityTypeIdentifierWalkingHeartRateAverage", unit: "count/min", start: 36_000, end: 72_000) { rng in
            String(96 + rng.next() % 12)
        }
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierRespiratoryRate", unit: "count/min", perDay: 4, source: .watch) { rng, _ in
            String(format: "%.1f", 13.5 + Double(rng.next() % 30) / 10)
        }
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierVO2Max", unit: "mL/min·kg", perDay: 0, every: 7, source: .watch) { rng, _ in
            String(format: "%.4f", 38 + Double(rng.next() % 8000) / 1000)
        } metadata: { _ in ["HKVO2MaxTestType": "2"] }
        bodyMass(w, &manifest)
        bloodPressureRecords(w, &manifest)
        dietaryRecords(w, &manifest)
        hrvRecords(w, &manifest)
        // A type newer than healthport.
        quantityRecords(w, &manifest, type: "HKQuantityTypeIdentifierFutureMetric", unit: "count", perDay: 0, every: 10, source: .phone) { _, _ in "1" }
        // A record type without a sample prefix (real exports have it).
        quantityRecords(w, &manifest, type: "HKDataTypeSleepDurationGoal", unit: "hr", perDay: 0, every: 30, source: .phone) { _, _ in "8" }
        // Category types.
        sleepRecords(w, &manifest)
        standHours(w, &manifest, totals: &totals)
        categoryRecords(w, &manifest, type: "HKCategoryTypeIdentifierMindfulSession", perDay: 0, every: 3, values: [nil, "HKCategoryValueNotApplicable"])
        // Symptoms with a severity; "not present" is logged too, and is no headache.
        categoryRecords(w, &manifest, type: "HKCategoryTypeIdentifierHeadache", perDay: 0, every: 4, values: ["HKCategoryValueSeverityMild", "HKCategoryValueSeverityModerate", "HKCategoryValueSeverityNotPresent"])
        categoryRecords(w, &manifest, type: "HKCategoryTypeIdentifierHighHeartRateEvent", perDay: 0, every: 6, values: ["HKCategoryValueNotApplicable"], source: .watch)

        correlations(w, &manifest)
        workouts(w, &manifest)
        // Apple's rings, as the Watch computed them from the same samples: move is the day's
        // active energy, exercise its minutes, stand its stood hours (what healthport's `days`
        // computes; the oracle of real exports holds them against the same sums).
        for day in 0..<options.days {
            w(" <ActivitySummary dateComponents=\"\(calendarDate(day).text)\" activeEnergyBurned=\"\(String(format: "%.3f", totals.move[day]))\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"kcal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"\(totals.exercise[day])\" appleExerciseTimeGoal=\"30\" appleStandHours=\"\(totals.stand[day])\" appleStandHoursGoal=\"12\"/>\n")
            manifest.count("HKActivitySummaryTypeIdentifier")
        }
        clinicalRecords(w, &manifest)
        w(" <Audiogram type=\"HKDataTypeIdentifierAudiogram\" sourceName=\"Hearing Test\" sourceVersion=\"3092\" creationDate=\"\(date(day: 2, second: 36000))\" startDate=\"\(date(day: 2, second: 35950))\" endDate=\"\(date(day: 2, second: 35950))\">\n")
        w("  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"1\"/>\n")
        for (frequency, left, right) in [("250", "35.0459", "20.0452"), ("1000", "15", ""), ("8000", "", "40.5")] {
            var point = "  <SensitivityPoint frequencyValue=\"\(frequency)\" frequencyUnit=\"Hz\""
            if !left.isEmpty { point += " leftEarValue=\"\(left)\" leftEarUnit=\"dBHL\"" }
            if !right.isEmpty { point += " rightEarValue=\"\(right)\" rightEarUnit=\"dBHL\"" }
            w(point + "/>\n")
        }
        w(" </Audiogram>\n")
        manifest.count("HKDataTypeIdentifierAudiogram")
        w(" <VisionPrescription type=\"HKVisionPrescriptionTypeGlasses\" dateIssued=\"\(date(day: 1, second: 43200))\" expirationDate=\"\(date(day: 365, second: 43200))\">\n")
        w("  <RightEye sphere=\"-1.25\" sphereUnit=\"D\" cylinder=\"-0.5\" cylinderUnit=\"D\" axis=\"90\" axisUnit=\"deg\" farPD=\"31.5\" farPDUnit=\"mm\"/>\n")
        w("  <LeftEye sphere=\"-1\" sphereUnit=\"D\" prismAmount=\"0.5\" prismAmountUnit=\"pD\" prismAngle=\"180\" prismAngleUnit=\"deg\"/>\n")
        w("  <Attachment identifier=\"7C0F1A2B-0000-4000-8000-000000000001\"/>\n")
        w(" </VisionPrescription>\n")
        manifest.count("HKVisionPrescriptionTypeIdentifier")
        // An element kind from the future: passed through, not dropped.
        w(" <FutureElement kind=\"example\" startDate=\"\(date(day: 0, second: 0))\">\n  <FutureChild value=\"1\"/>\n </FutureElement>\n")
        manifest.count("FutureElement")
        w("</HealthData>\n")
        w.flush()
        return manifest
    }

    enum SourceKind { case watch, phone, both }

    private func provenance(_ source: SourceKind, _ index: Int, _ rng: inout SplitMix64) -> String {
        let useWatch = source == .watch || (source == .both && index % 2 == 0)
        if useWatch {
            return "sourceName=\"\(Self.escape(Self.watchSource))\" sourceVersion=\"10.2\" device=\"\(watchDevice(&rng))\""
        }
        return "sourceName=\"\(Self.escape(Self.phoneSource))\" sourceVersion=\"17.2\" device=\"\(phoneDevice(&rng))\""
    }

    private func quantityRecords(
        _ w: Writer, _ manifest: inout Manifest, type: String, unit: String, perDay: Int, every: Int = 1,
        source: SourceKind, overlapping: Bool = false, value: (inout SplitMix64, _ day: Int) -> String,
        metadata: ((inout SplitMix64) -> [String: String])? = nil
    ) {
        for day in 0..<options.days {
            var rng = rng(type, day)
            let count = perDay > 0 ? perDay : (day % every == 0 ? 1 : 0)
            guard count > 0 else { continue }
            let step = 86_400 / count
            var previousStart = 0
            for i in 0..<count {
                var start = i * step + Int(rng.next() % UInt64(max(1, step / 2)))
                // The second source counted the same minute as the first.
                if overlapping, source == .both, i % 2 == 1 { start = previousStart }
                previousStart = start
                let end = start + (unit == "count/min" || unit == "%" ? 0 : 60)
                let attributes = "type=\"\(type)\" \(provenance(source, i, &rng)) unit=\"\(Self.escape(unit))\" creationDate=\"\(date(day: day, second: end + 30))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\" value=\"\(value(&rng, day))\""
                if let metadata {
                    w(" <Record \(attributes)>\n")
                    for (key, value) in metadata(&rng).sorted(by: { $0.key < $1.key }) {
                        w("  <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n")
                    }
                    w(" </Record>\n")
                } else {
                    w(" <Record \(attributes)/>\n")
                }
                manifest.count(type)
            }
        }
    }

    private func bodyMass(_ w: Writer, _ manifest: inout Manifest) {
        // The scale's body fat, a fraction as HealthKit keeps percentages (quirk: `%` is 0–1).
        let fat = "HKQuantityTypeIdentifierBodyFatPercentage"
        for day in stride(from: 0, to: options.days, by: 7) {
            var rng = rng(fat, day)
            w(" <Record type=\"\(fat)\" sourceName=\"Withings\" sourceVersion=\"6.4\" unit=\"%\" creationDate=\"\(date(day: day, second: 25_230))\" startDate=\"\(date(day: day, second: 25_200))\" endDate=\"\(date(day: day, second: 25_200))\" value=\"0.\(21 + rng.next() % 4)\(rng.next() % 10)\"/>\n")
            manifest.count(fat)
        }
        let type = "HKQuantityTypeIdentifierBodyMass"
        for day in stride(from: 0, to: options.days, by: 7) {
            var rng = rng(type, day)
            let record = " <Record type=\"\(type)\" sourceName=\"Health\" sourceVersion=\"17.2\" unit=\"kg\" creationDate=\"\(date(day: day, second: 25_230))\" startDate=\"\(date(day: day, second: 25_200))\" endDate=\"\(date(day: day, second: 25_200))\" value=\"\(70 + Int(rng.next() % 5)).\(rng.next() % 10)\">\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n </Record>\n"
            w(record)
            manifest.count(type)
            // An exact duplicate of a manual entry every other week (quirk Q7).
            if (day / 7) % 2 == 0 {
                w(record)
                manifest.count(type)
                manifest.exactDuplicates += 1
            }
        }
    }

    /// Systolic/diastolic pairs; each also appears inside a correlation (written later).
    private func bloodPressureRecords(_ w: Writer, _ manifest: inout Manifest) {
        for (type, base) in [("HKQuantityTypeIdentifierBloodPressureSystolic", 115), ("HKQuantityTypeIdentifierBloodPressureDiastolic", 75)] {
            for day in stride(from: 0, to: options.days, by: 2) {
                w(bloodPressureRecord(type: type, base: base, day: day, indent: " "))
                manifest.count(type)
            }
        }
    }

    private func bloodPressureRecord(type: String, base: Int, day: Int, indent: String) -> String {
        "\(indent)<Record type=\"\(type)\" sourceName=\"Omron\" sourceVersion=\"2.1\" unit=\"mmHg\" creationDate=\"\(date(day: day, second: 28_900))\" startDate=\"\(date(day: day, second: 28_800))\" endDate=\"\(date(day: day, second: 28_800))\" value=\"\(base + day % 10)\"/>\n"
    }

    private func dietaryRecords(_ w: Writer, _ manifest: inout Manifest) {
        for (type, unit) in [("HKQuantityTypeIdentifierDietaryEnergyConsumed", "kcal"), ("HKQuantityTypeIdentifierDietaryProtein", "g")] {
            for day in stride(from: 0, to: options.days, by: 5) {
                w(dietaryRecord(type: type, unit: unit, day: day, indent: " "))
                manifest.count(type)
            }
        }
    }

    private func dietaryRecord(type: String, unit: String, day: Int, indent: String) -> String {
        let food = day == 0 && options.forbiddenCharacters ? "Soup\u{0B}with bread" : "Soup & bread \"daily\""
        return "\(indent)<Record type=\"\(type)\" sourceName=\"MyFitnessPal\" sourceVersion=\"35\" unit=\"\(unit)\" creationDate=\"\(date(day: day, second: 45_000))\" startDate=\"\(date(day: day, second: 43_200))\" endDate=\"\(date(day: day, second: 43_200))\" value=\"\(unit == "kcal" ? "512.5" : "21")\">\n\(indent) <MetadataEntry key=\"HKFoodType\" value=\"\(Self.escape(food))\"/>\n\(indent)</Record>\n"
    }

    private func hrvRecords(_ w: Writer, _ manifest: inout Manifest) {
        let type = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
        for day in 0..<options.days {
            var rng = rng(type, day)
            for (index, start) in [8 * 3600 + 1234, 23 * 3600 + 59 * 60 + 30].enumerated() {
                w(" <Record type=\"\(type)\" \(provenance(.watch, 0, &rng)) unit=\"ms\" creationDate=\"\(date(day: day, second: start + 70))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: start + 65))\" value=\"\(20 + rng.next() % 40).\(rng.next() % 1000)\">\n")
                w("  <HeartRateVariabilityMetadataList>\n")
                // The beats' times on the clock the sample's dates are printed with.
                let printed = Int((timestamp(day: day, second: start).secondsSince1970 + Int64(exportOffset)) % 86_400 + 86_400) % 86_400
                for beat in 0..<4 {
                    let second = (printed + 2 + beat) % 86_400
                    let hour = second / 3600
                    let twelve = hour % 12 == 0 ? 12 : hour % 12
                    // Locale variants: 12-hour with U+202F, 24-hour with a decimal comma.
                    let time = index == 0
                        ? String(format: "%d:%02d:%02d.%02d\u{202F}%@", twelve, (second / 60) % 60, second % 60, beat * 7, hour < 12 ? "AM" : "PM")
                        : String(format: "%02d:%02d:%02d,%02d", hour, (second / 60) % 60, second % 60, beat * 7)
                    w("   <InstantaneousBeatsPerMinute bpm=\"\(58 + beat)\" time=\"\(time)\"/>\n")
                }
                w("  </HeartRateVariabilityMetadataList>\n </Record>\n")
                manifest.count(type)
            }
        }
    }

    /// The nights, as a Watch and an iPhone record them, each different: the iPhone's in-bed
    /// interval around the Watch's stages (core, deep, REM, awake, in cycles of about 90 minutes),
    /// except on watchOS 11 nights (every fourth), which have stages only; a sleep app's legacy
    /// `…Asleep` interval over the same hours every fifth night (the Watch's stages win, nothing
    /// counts twice); a night of two sessions (every seventh, from the fifth), awake for an hour and a
    /// quarter at 03:00; and a
    /// daytime nap, a nap and not the night's sleep. Night `day` begins in the evening of `day`.
    private func sleepRecords(_ w: Writer, _ manifest: inout Manifest) {
        let type = "HKCategoryTypeIdentifierSleepAnalysis"
        let value = "HKCategoryValueSleepAnalysis"
        func record(_ rng: inout SplitMix64, _ day: Int, _ start: Int, _ end: Int, _ stage: String, _ source: SourceKind, zone: Bool = true) {
            let provenance = source == .both ? "sourceName=\"Sleep++\" sourceVersion=\"4.1\"" : provenance(source, 0, &rng)
            let metadata = zone ? "  <MetadataEntry key=\"HKTimeZone\" value=\"\(Self.escape(options.timeZone))\"/>\n" : ""
            w(" <Record type=\"\(type)\" \(provenance) creationDate=\"\(date(day: day, second: end + 300))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\" value=\"\(value)\(stage)\"\(metadata.isEmpty ? "/>" : ">")\n\(metadata)\(metadata.isEmpty ? "" : " </Record>\n")")
            manifest.count(type)
        }
        for day in 0..<options.days {
            var rng = rng(type, day)
            let bedtime = 22 * 3600 + 2700 + Int(rng.next() % 4500)
            let onset = bedtime + 600 + Int(rng.next() % 900)
            let wake = 86_400 + 6 * 3600 + 1800 + Int(rng.next() % 3600)
            if day % 4 != 3 { record(&rng, day, bedtime - 600, wake + 300, "InBed", .phone, zone: false) }
            // The Watch's stages, cycle by cycle, from sleep onset to waking.
            var time = onset
            var cycle = 0
            let split = day % 7 == 4 ? (86_400 + 3 * 3600, 86_400 + 3 * 3600 + 4500) : nil
            while time < wake {
                if let split, time >= split.0 && time < split.1 {
                    time = split.1
                    continue
                }
                let deep = max(0, 30 - cycle * 8) * 60 + Int(rng.next() % 600)
                let rem = (10 + cycle * 6) * 60 + Int(rng.next() % 600)
                for (stage, length) in [("AsleepCore", 1800 + Int(rng.next() % 1200)), ("AsleepDeep", deep), ("AsleepCore", 600 + Int(rng.next() % 600)), ("AsleepREM", rem), ("Awake", rng.next() % 3 == 0 ? 120 + Int(rng.next() % 300) : 0)] {
                    guard length > 0, time < wake else { continue }
                    var end = min(time + length, wake)
                    if let split, time < split.0 && end > split.0 { end = split.0 }
                    record(&rng, day, time, end, stage, .watch)
                    time = end
                }
                cycle += 1
            }
            if day % 5 == 2 { record(&rng, day, onset - 300, wake, "Asleep", .both, zone: false) }
            // A nap the next afternoon (before the export is made).
            if day % 7 == 6 && day + 1 < options.days {
                let napStart = 86_400 + 14 * 3600 + 600 + Int(rng.next() % 1200)
                record(&rng, day, napStart, napStart + 1500 + Int(rng.next() % 900), "AsleepCore", .watch)
            }
        }
    }

    private func categoryRecords(
        _ w: Writer, _ manifest: inout Manifest, type: String, perDay: Int, every: Int = 1, values: [String?], source: SourceKind = .phone
    ) {
        for day in 0..<options.days {
            var rng = rng(type, day)
            let count = perDay > 0 ? perDay : (day % every == 0 ? 1 : 0)
            for i in 0..<count {
                // Through the waking day, from 09:00.
                let start = 9 * 3600 + i * (12 * 3600 / max(count, 1)) + Int(rng.next() % 1800)
                let value = values[Int(rng.next() % UInt64(values.count))]
                let valueAttribute = value.map { " value=\"\($0)\"" } ?? ""
                w(" <Record type=\"\(type)\" \(provenance(source, 1, &rng)) creationDate=\"\(date(day: day, second: start + 600))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: start + 600))\"\(valueAttribute)/>\n")
                manifest.count(type)
            }
        }
    }

    /// What the rings of each day add up (`ActivitySummary`): the same sums healthport's days
    /// make from the samples.
    struct DayTotals {
        var move: [Double]
        var exercise: [Int]
        var stand: [Int]

        init(days: Int) {
            move = Array(repeating: 0, count: max(0, days))
            exercise = Array(repeating: 0, count: max(0, days))
            stand = Array(repeating: 0, count: max(0, days))
        }
    }

    /// A day's workout, if it has one: every third day, between 17:00 and 17:20, running (with a
    /// route) two times out of three, else strength training; the heart rate the Watch records
    /// every minute of it.
    struct WorkoutPlan {
        var start: Int
        var end: Int
        var activity: String
        var hasRoute: Bool
        /// Beats per minute at each minute of the workout, from its start.
        var heartRates: [Int]
    }

    func workoutPlan(day: Int) -> WorkoutPlan? {
        guard day % 3 == 0 else { return nil }
        var beats = rng("workout-heart-rate", day)
        var rng = rng("workout", day)
        let start = 17 * 3600 + Int(rng.next() % 1200)
        let end = start + 1800 + Int(rng.next() % 1800)
        let running = (day / 3) % 3 != 2
        let heartRates = (0..<((end - start) / 60)).map { _ in (running ? 138 : 112) + Int(beats.next() % 30) }
        return WorkoutPlan(
            start: start, end: end, activity: running ? "HKWorkoutActivityTypeRunning" : "HKWorkoutActivityTypeTraditionalStrengthTraining",
            hasRoute: running, heartRates: heartRates)
    }

    /// Heart rate through the day (every ~10 minutes, resting to walking values) and every
    /// minute of a workout.
    private func heartRateRecords(_ w: Writer, _ manifest: inout Manifest) {
        let type = "HKQuantityTypeIdentifierHeartRate"
        let perDay = 150 * options.density
        for day in 0..<options.days {
            var rng = rng(type, day)
            let plan = workoutPlan(day: day)
            var samples: [(second: Int, value: Int)] = []
            let step = 86_400 / perDay
            for i in 0..<perDay {
                let second = i * step + Int(rng.next() % UInt64(max(1, step / 2)))
                if let plan, second >= plan.start && second < plan.end { continue }
                samples.append((second, 58 + Int(rng.next() % 40)))
            }
            if let plan {
                for (minute, value) in plan.heartRates.enumerated() { samples.append((plan.start + minute * 60 + 30, value)) }
            }
            for (second, value) in samples.sorted(by: { $0.second < $1.second }) {
                w(" <Record type=\"\(type)\" \(provenance(.watch, 0, &rng)) unit=\"count/min\" creationDate=\"\(date(day: day, second: second + 30))\" startDate=\"\(date(day: day, second: second))\" endDate=\"\(date(day: day, second: second))\" value=\"\(value)\">\n")
                w("  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"\(rng.next() % 3)\"/>\n </Record>\n")
                manifest.count(type)
            }
        }
    }

    /// One sample a day, from the Watch (resting heart rate, walking heart rate average).
    private func dailyRecord(
        _ w: Writer, _ manifest: inout Manifest, type: String, unit: String, start: Int, end: Int, value: (inout SplitMix64) -> String
    ) {
        for day in 0..<options.days {
            var rng = rng(type, day)
            w(" <Record type=\"\(type)\" \(provenance(.watch, 0, &rng)) unit=\"\(Self.escape(unit))\" creationDate=\"\(date(day: day, second: end + 60))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\" value=\"\(value(&rng))\"/>\n")
            manifest.count(type)
        }
    }

    /// Exercise minutes, one record a minute as the Watch writes them: a brisk walk each
    /// morning and every minute of the day's workout.
    private func exerciseRecords(_ w: Writer, _ manifest: inout Manifest, totals: inout DayTotals) {
        let type = "HKQuantityTypeIdentifierAppleExerciseTime"
        for day in 0..<options.days {
            var rng = rng(type, day)
            let walk = 8 * 3600 + Int(rng.next() % 1800)
            var minutes = (0..<(8 + Int(rng.next() % 18))).map { walk + $0 * 60 }
            if let plan = workoutPlan(day: day) { minutes += (0..<((plan.end - plan.start) / 60)).map { plan.start + $0 * 60 } }
            for start in minutes {
                w(" <Record type=\"\(type)\" \(provenance(.watch, 0, &rng)) unit=\"min\" creationDate=\"\(date(day: day, second: start + 90))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: start + 60))\" value=\"1\"/>\n")
                manifest.count(type)
            }
            totals.exercise[day] = minutes.count
        }
    }

    /// Stand hours, as the Watch writes them: each hour from 07:00 to 22:00, stood or idle.
    private func standHours(_ w: Writer, _ manifest: inout Manifest, totals: inout DayTotals) {
        let type = "HKCategoryTypeIdentifierAppleStandHour"
        for day in 0..<options.days {
            var rng = rng(type, day)
            for hour in 7..<23 {
                let stood = rng.next() % 10 < 6
                if stood { totals.stand[day] += 1 }
                let value = stood ? "HKCategoryValueAppleStandHourStood" : "HKCategoryValueAppleStandHourIdle"
                w(" <Record type=\"\(type)\" \(provenance(.watch, 0, &rng)) creationDate=\"\(date(day: day, second: hour * 3600 + 3660))\" startDate=\"\(date(day: day, second: hour * 3600))\" endDate=\"\(date(day: day, second: hour * 3600 + 3600))\" value=\"\(value)\"/>\n")
                manifest.count(type)
            }
        }
    }

    private func correlations(_ w: Writer, _ manifest: inout Manifest) {
        for day in stride(from: 0, to: options.days, by: 2) {
            w(" <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Omron\" sourceVersion=\"2.1\" creationDate=\"\(date(day: day, second: 28_900))\" startDate=\"\(date(day: day, second: 28_800))\" endDate=\"\(date(day: day, second: 28_800))\">\n")
            w(bloodPressureRecord(type: "HKQuantityTypeIdentifierBloodPressureSystolic", base: 115, day: day, indent: "  "))
            w(bloodPressureRecord(type: "HKQuantityTypeIdentifierBloodPressureDiastolic", base: 75, day: day, indent: "  "))
            w(" </Correlation>\n")
            manifest.count("HKCorrelationTypeIdentifierBloodPressure")
        }
        for day in stride(from: 0, to: options.days, by: 5) {
            w(" <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"MyFitnessPal\" sourceVersion=\"35\" creationDate=\"\(date(day: day, second: 45_000))\" startDate=\"\(date(day: day, second: 43_200))\" endDate=\"\(date(day: day, second: 43_200))\">\n")
            w("  <MetadataEntry key=\"HKFoodType\" value=\"\(Self.escape(day == 0 && options.forbiddenCharacters ? "Soup\u{0B}with bread" : "Soup & bread \"daily\""))\"/>\n")
            w(dietaryRecord(type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", unit: "kcal", day: day, indent: "  "))
            w(dietaryRecord(type: "HKQuantityTypeIdentifierDietaryProtein", unit: "g", day: day, indent: "  "))
            w(" </Correlation>\n")
            manifest.count("HKCorrelationTypeIdentifierFood")
        }
        if options.forbiddenCharacters && options.days > 0 {
            // Day 0's food name holds one \x0B in the two dietary records, their two copies
            // inside the food correlation, and the correlation's own metadata.
            manifest.forbiddenBytes = 5
        }
    }

    private func workouts(_ w: Writer, _ manifest: inout Manifest) {
        for day in 0..<options.days {
            guard let plan = workoutPlan(day: day) else { continue }
            var rng = rng("workout", day)
            _ = rng.next()
            _ = rng.next()
            let (start, end) = (plan.start, plan.end)
            let metadata = "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"\(plan.hasRoute ? 0 : 1)\"/>\n  <MetadataEntry key=\"HKWeatherHumidity\" value=\"6400 %\"/>\n  <MetadataEntry key=\"HKWeatherTemperature\" value=\"56 degF\"/>\n  <MetadataEntry key=\"HKTimeZone\" value=\"\(Self.escape(options.timeZone))\"/>\n"
            // Older exports print the totals as attributes; newer ones only as statistics.
            let legacyTotals = plan.hasRoute && day % 2 == 0 ? " totalDistance=\"5.2\" totalDistanceUnit=\"km\" totalEnergyBurned=\"320.5\" totalEnergyBurnedUnit=\"kcal\"" : ""
            w(" <Workout workoutActivityType=\"\(plan.activity)\" duration=\"\(Double(end - start - 120) / 60)\" durationUnit=\"min\"\(legacyTotals) \(provenance(.watch, 0, &rng)) creationDate=\"\(date(day: day, second: end + 10))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\">\n")
            w(metadata)
            w("  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"\(date(day: day, second: start + 600))\"/>\n")
            w("  <WorkoutEvent type=\"HKWorkoutEventTypeResume\" date=\"\(date(day: day, second: start + 720))\"/>\n")
            w("  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"\(date(day: day, second: start))\" duration=\"10\" durationUnit=\"min\">\n   <MetadataEntry key=\"HKSWOLFScore\" value=\"42\"/>\n  </WorkoutEvent>\n")
            // The heart rate statistics Apple computed from the same minutes.
            let rates = plan.heartRates
            let average = rates.isEmpty ? 0 : Double(rates.reduce(0, +)) / Double(rates.count)
            let heart = "type=\"HKQuantityTypeIdentifierHeartRate\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\" average=\"\(String(format: "%.4f", average))\" minimum=\"\(rates.min() ?? 0)\" maximum=\"\(rates.max() ?? 0)\" unit=\"count/min\""
            let activityUUID = String(format: "%08X-0000-4000-8000-%012X", day, rng.next() & 0xFFFF_FFFF_FFFF)
            w("  <WorkoutActivity uuid=\"\(activityUUID)\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\" duration=\"\(Double(end - start - 120) / 60)\" durationUnit=\"min\">\n")
            w("   <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"\(date(day: day, second: start + 600))\"/>\n")
            w("   <WorkoutStatistics \(heart)/>\n")
            w("   <MetadataEntry key=\"HKIndoorWorkout\" value=\"\(plan.hasRoute ? 0 : 1)\"/>\n")
            w("  </WorkoutActivity>\n")
            if plan.hasRoute {
                w("  <WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\" sum=\"5.2\" unit=\"km\"/>\n")
            }
            w("  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\" sum=\"\(String(format: "%.3f", Double(end - start) / 60 * (plan.hasRoute ? 10.4 : 6.2)))\" unit=\"kcal\"/>\n")
            w("  <WorkoutStatistics \(heart)/>\n")
            if plan.hasRoute {
                let routeFile = "workout-routes/route_\(calendarDate(day).text)_\(day).gpx"
                w("  <WorkoutRoute sourceName=\"\(Self.escape(Self.watchSource))\" sourceVersion=\"10.2\" creationDate=\"\(date(day: day, second: end + 20))\" startDate=\"\(date(day: day, second: start))\" endDate=\"\(date(day: day, second: end))\">\n   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n   <FileReference path=\"/\(routeFile)\"/>\n  </WorkoutRoute>\n")
                manifest.routeFiles.append(routeFile)
            }
            // The workout's metadata again, as recent exports print it (quirk Q8).
            w(metadata)
            w(" </Workout>\n")
            manifest.count("HKWorkoutTypeIdentifier")
        }
    }

    private func clinicalRecords(_ w: Writer, _ manifest: inout Manifest) {
        let records: [(String, String, String)] = [
            ("Observation", "1", "HKClinicalTypeIdentifierLabResultRecord"),
            ("Condition", "1", "HKClinicalTypeIdentifierConditionRecord"),
            ("Immunization", "7", "HKClinicalTypeIdentifierImmunizationRecord"),
        ]
        for (index, (type, identifier, clinicalType)) in records.enumerated() {
            let file = "clinical-records/\(type)-\(String(format: "%08X", index))-0000-4000-8000-000000000000.json"
            w(" <ClinicalRecord type=\"\(type)\" identifier=\"\(identifier)\" sourceName=\"Sample Location\" sourceURL=\"https://fhir.example.org/DSTU2/\(type)/\(identifier)\" fhirVersion=\"1.0.2\" receivedDate=\"\(date(day: 1, second: 3600 * index))\" resourceFilePath=\"/\(file)\"/>\n")
            manifest.count(clinicalType)
            manifest.clinicalFiles.append(file)
        }
    }

    /// A GPX route as the exporter writes it.
    func gpx(day: Int) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Apple Health Export\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n  <metadata>\n    <time>2024-03-01T09:00:00Z</time>\n  </metadata>\n  <trk>\n    <name>Route</name>\n    <trkseg>\n"
        let start = timestamp(day: day, second: workoutPlan(day: day)?.start ?? 17 * 3600)
        for i in 0..<5 {
            let t = ExportTimestamp(secondsSince1970: start.secondsSince1970 + Int64(i * 5), utcOffsetSeconds: 0).iso8601
            text += "      <trkpt lon=\"\(String(format: "%.6f", 2.35 + Double(i) * 0.0001))\" lat=\"48.856600\"><ele>35.0</ele><time>\(t.dropLast(6))Z</time><extensions><speed>2.8</speed><course>90.0</course><hAcc>5.0</hAcc><vAcc>4.0</vAcc></extensions></trkpt>\n"
        }
        return text + "    </trkseg>\n  </trk>\n</gpx>\n"
    }

    /// An ECG file as the Watch's app writes it (its date in the zone's offset then).
    func ecg(day: Int) -> String {
        let recorded = instant(day: day, second: 10 * 3600 + 32 * 60 + 18)
        let offset = Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(recorded))))
        return Self.ecgText.replacingOccurrences(
            of: "RECORDED", with: ExportTimestamp(secondsSince1970: recorded, utcOffsetSeconds: offset).exportText)
    }

    static let ecgText = "Name,Sample Person\nDate of Birth,\"Jun 15, 1985\"\nRecorded Date,RECORDED\nClassification,Sinus Rhythm\nSymptoms,\nSoftware Version,1.90\nDevice,\"Watch6,2\"\nSample Rate,512.844 hertz\n\n\nLead,Lead I\nUnit,µV\n\n150.141\n151.2\n-3.5\n"

    /// Writes a whole export folder (`apple_health_export/` with its side files) under `root`.
    public func writeFolder(at root: URL, documentName: String = "export.xml") throws -> Manifest {
        let folder = root.appendingPathComponent("apple_health_export")
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        try manager.createDirectory(at: folder.appendingPathComponent("clinical-records"), withIntermediateDirectories: true)
        try manager.createDirectory(at: folder.appendingPathComponent("electrocardiograms"), withIntermediateDirectories: true)
        let documentURL = folder.appendingPathComponent(documentName)
        _ = manager.createFile(atPath: documentURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: documentURL)
        var manifest = writeDocument(to: handle)
        try handle.close()
        for file in manifest.routeFiles {
            // `route_DATE_DAY.gpx`: the day is the name's last part.
            let day = Int(file.dropLast(4).split(separator: "_").last ?? "0") ?? 0
            try Data(gpx(day: day).utf8).write(to: folder.appendingPathComponent(file))
        }
        for file in manifest.clinicalFiles {
            let type = file.split(separator: "/").last!.split(separator: "-").first!
            try Data("{\n  \"resourceType\" : \"\(type)\",\n  \"id\" : \"1\",\n  \"status\" : \"final\"\n}".utf8).write(to: folder.appendingPathComponent(file))
        }
        let ecgDay = min(4, max(0, options.days - 1))
        let ecgFile = "electrocardiograms/ecg_\(calendarDate(ecgDay).text).csv"
        try Data(ecg(day: ecgDay).utf8).write(to: folder.appendingPathComponent(ecgFile))
        manifest.electrocardiogramFiles = [ecgFile]
        try Data(Self.cda.utf8).write(to: folder.appendingPathComponent("export_cda.xml"))
        return manifest
    }

    /// A small CDA document: two heart-rate observations and a body-mass one.
    static let cda = """
        <?xml version="1.0"?>
        <?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3"><title>Health Data Export</title>
        <entry><organizer><component><observation><text><type>HKQuantityTypeIdentifierHeartRate</type><value>72</value></text></observation></component>
        <component><observation><text><type>HKQuantityTypeIdentifierHeartRate</type><value>75</value></text></observation></component>
        <component><observation><text><type>HKQuantityTypeIdentifierBodyMass</type><value>70.5</value></text></observation></component></organizer></entry>
        </ClinicalDocument>

        """

    static let dtd = """
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate value CDATA #REQUIRED>
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
        ]>

        """

    /// The iOS 16 defect (docs/reference/export-format.md §2.4): an ATTLIST without its `>`, stray text and a
    /// lone `>` before `]>`. Every conforming parser stops at it.
    static let brokenDTD = """
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 12 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|VisionPrescription)*)>
        <!ATTLIST VisionPrescription
          type             CDATA #REQUIRED
          dateIssued       CDATA #REQUIRED
          expirationDate   CDATA #REQUIRED
          brand            CDATA #IMPLIED
        <!ELEMENT RightEye EMPTY>
        <!ATTLIST RightEye
          sphere           CDATA #IMPLIED
        >
          device           CDATA #IMPLIED
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key              CDATA #IMPLIED
          value            CDATA #IMPLIED
        >
        >
        ]>

        """
}
