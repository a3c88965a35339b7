import Foundation
import Testing
@testable import HealthModel

@Suite struct ObjectIdentityTests {
    func sample(value: String = "72", offset: Int32 = 3600, unit: String = "count/min", metadata: [MetadataEntry] = []) -> HealthObject {
        let start = ExportTimestamp(secondsSince1970: 1_700_000_000, utcOffsetSeconds: offset)
        let attributes = SampleAttributes(
            sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierHeartRate"),
            sourceRevision: SourceRevision(source: Source(name: "Apple Watch"), version: "10.2"),
            device: Device(name: "Apple Watch", manufacturer: "Apple Inc."), startDate: start, endDate: start,
            metadata: Metadata(metadata))
        return .quantitySample(QuantitySample(sample: attributes, quantity: Quantity(value: ExportNumber.parse(value)!, unit: unit)))
    }

    @Test func sameContentGivesTheSameUUIDEverywhere() {
        var a = ObjectIdentityAssigner()
        var b = ObjectIdentityAssigner()
        var x = sample()
        var y = sample()
        a.assign(&x)
        b.assign(&y)
        #expect(x.uuid == y.uuid)
        // RFC 9562 version 8, variant 0b10.
        #expect((x.uuid.high >> 12) & 0xF == 8)
        #expect(x.uuid.low >> 62 == 0b10)
    }

    @Test func exactDuplicatesGetDistinctUUIDsAndTheFirstIsUnchanged() {
        var assigner = ObjectIdentityAssigner()
        var first = sample()
        var second = sample()
        var third = sample()
        assigner.assign(&first)
        assigner.assign(&second)
        assigner.assign(&third)
        #expect(Set([first.uuid, second.uuid, third.uuid]).count == 3)
        var alone = ObjectIdentityAssigner()
        var only = sample()
        alone.assign(&only)
        #expect(only.uuid == first.uuid)
    }

    /// Metadata counts as a set at any length: the order of the entries, and an identical pair
    /// printed twice (quirk Q8), change no uuid, whether the list is short enough for the
    /// insertion sort or long enough for `sort` (past 32 entries).
    @Test(arguments: [5, 40, 2_000])
    func metadataIsASetAtAnyLength(count: Int) {
        var rng = SystemRandomNumberGenerator()
        let entries = (0..<count).map { i in
            MetadataEntry(key: "k\(i % 7)", value: i % 3 == 0 ? .number(ExportNumber(Double(i))) : .string("v\(i)"))
        }
        func uuid(_ metadata: [MetadataEntry]) -> ObjectUUID {
            var assigner = ObjectIdentityAssigner()
            var object = sample(metadata: metadata)
            assigner.assign(&object)
            return object.uuid
        }
        let reference = uuid(entries)
        #expect(uuid(entries.reversed()) == reference)
        #expect(uuid(entries.shuffled(using: &rng)) == reference)
        #expect(uuid(entries + entries.prefix(count / 2)) == reference)
        #expect(uuid(Array(entries.dropLast())) != reference)
    }

    /// The duplicate-counting table past the size where its slots are huge pages (262,144
    /// slots and more), and its value semantics: a copy does not see the original's inserts.
    @Test func fingerprintTableCountsRepeatsWhileGrowingAndCopiesOnWrite() {
        var table = FingerprintTable()
        let n = 300_000
        // A fixed odd multiplier spreads 1…n over the 64-bit space; 0 is stored as 1, so skip it.
        func fingerprint(_ i: Int) -> UInt64 { UInt64(i) &* 0x9E37_79B9_7F4A_7C15 }
        for i in 1...n { #expect(table.insert(fingerprint(i)) == 0) }
        let snapshot = table
        for i in stride(from: 1, through: n, by: 1000) { #expect(table.insert(fingerprint(i)) == 1) }
        #expect(table.insert(fingerprint(1)) == 2)
        #expect(table.contains(fingerprint(n)))
        #expect(!table.contains(fingerprint(n + 1)))
        var copy = snapshot
        #expect(copy.insert(fingerprint(1)) == 1)
        #expect(copy.insert(fingerprint(n + 1)) == 0)
        #expect(!table.contains(fingerprint(n + 1)))
        table.removeAll()
        #expect(!table.contains(fingerprint(1)))
        #expect(table.insert(fingerprint(1)) == 0)
        #expect(copy.contains(fingerprint(n + 1)))
    }

    /// Past the memory budget the slots are a mapped temporary file without a name: the data
    /// survives handing the pages back, copies are independent, and no file is left anywhere.
    @Test func aTablePastTheMemoryBudgetLivesInAnUnnamedFile() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        let count = (FingerprintSlots.memoryBudget / 8) * 2
        let slots = FingerprintSlots(count: count)
        #expect(slots.isFileBacked)
        for i in stride(from: 0, to: count, by: 4099) { slots.pointer[i] = UInt64(i) &+ 1 }
        slots.releaseResidentPages()
        for i in stride(from: 0, to: count, by: 4099) { #expect(slots.pointer[i] == UInt64(i) &+ 1) }
        #expect(slots.pointer[1] == 0)
        let copy = slots.copy()
        copy.pointer[0] = 42
        #expect(slots.pointer[0] == 1)
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        #expect(Set(after).subtracting(before).filter { $0.contains("healthport-fingerprints") }.isEmpty)
        #expect(!FingerprintSlots(count: 1024).isFileBacked)
    }

    /// Identity does not depend on document order: the same objects, duplicates included, in
    /// any order get the same set of uuids (copies are counted in the whole export).
    @Test func theSetOfUUIDsDoesNotDependOnOrder() {
        var objects: [HealthObject] = []
        for value in 60..<90 { objects.append(sample(value: String(value))) }
        for value in [61, 61, 75] { objects.append(sample(value: String(value))) }
        for value in 0..<20 { objects.append(sample(value: String(value), unit: "count")) }
        func uuids(_ order: [HealthObject]) -> [ObjectUUID] {
            var assigner = ObjectIdentityAssigner()
            return order.map { object in
                var object = object
                assigner.assign(&object)
                return object.uuid
            }
        }
        let grouped = uuids(objects)
        #expect(Set(grouped).count == objects.count)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            #expect(Set(uuids(objects.shuffled(using: &rng))) == Set(grouped))
        }
    }

    @Test func aChangedValueIsANewObject() {
        var assigner = ObjectIdentityAssigner()
        var a = sample(value: "72")
        var b = sample(value: "73")
        assigner.assign(&a)
        assigner.assign(&b)
        #expect(a.uuid != b.uuid)
    }

    @Test func printedOffsetsAndNumberSpellingsDoNotChangeIdentity() {
        var encoder = CanonicalEncoder()
        let paris = ObjectIdentity.uuid(of: sample(value: "80", offset: 3600), encoder: &encoder)
        let tokyo = ObjectIdentity.uuid(of: sample(value: "80.0", offset: 32400), encoder: &encoder)
        #expect(paris == tokyo)
    }

    @Test func metadataIsASetAndHumidityDriftIsNormalized() {
        var encoder = CanonicalEncoder()
        let a = ObjectIdentity.uuid(
            of: sample(metadata: [
                MetadataEntry(key: "HKWeatherHumidity", value: .interpret("80 %")),
                MetadataEntry(key: "HKIndoorWorkout", value: .interpret("0")),
            ]), encoder: &encoder)
        let b = ObjectIdentity.uuid(
            of: sample(metadata: [
                MetadataEntry(key: "HKIndoorWorkout", value: .interpret("0")),
                MetadataEntry(key: "HKWeatherHumidity", value: .interpret("8000 %")),
                MetadataEntry(key: "HKIndoorWorkout", value: .interpret("0")),
            ]), encoder: &encoder)
        #expect(a == b)
    }

    @Test func uuidTextRoundTrips() throws {
        let uuid = ObjectUUID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        #expect(uuid.uuidString == "01234567-89AB-CDEF-FEDC-BA9876543210")
        #expect(try #require(ObjectUUID(uuidString: uuid.uuidString.lowercased())) == uuid)
    }

    @Test func categoryValueNamesMapToHealthKitRawValues() {
        #expect(CategoryValue.interpret("HKCategoryValueSleepAnalysisAsleepCore").rawValue == 3)
        #expect(CategoryValue.interpret("HKCategoryValueSleepAnalysisAsleep").rawValue == 1)
        #expect(CategoryValue.interpret("HKCategoryValueSleepAnalysisAsleepUnspecified").rawValue == 1)
        #expect(CategoryValue.interpret("HKCategoryValueSeverityMild").rawValue == 2)
        let unknown = CategoryValue.interpret("HKCategoryValueSomethingNew")
        #expect(unknown.rawValue == nil)
        #expect(unknown.name == "HKCategoryValueSomethingNew")
    }

    @Test func metadataTypesAreRecoveredFromText() {
        #expect(MetadataValue.interpret("0") == .number(ExportNumber.parse("0")!))
        #expect(MetadataValue.interpret("418 cm") == .quantity(Quantity(value: ExportNumber.parse("418")!, unit: "cm")))
        #expect(MetadataValue.interpret("2016-04-18 15:56:05 +0000") == .date(ExportTimestamp.parse("2016-04-18 15:56:05 +0000")!))
        #expect(MetadataValue.interpret("Europe/Paris") == .string("Europe/Paris"))
        #expect(MetadataValue.interpret("007") == .string("007"))
        #expect(MetadataValue.interpret("9.1945 kcal/hr·kg").text == "9.1945 kcal/hr·kg")
    }

    @Test func onlyHealthKitQuantityKeysHoldQuantities() {
        let chips = MetadataValue.interpret("13 Chips", key: "HKFoodBrandName")
        #expect(chips == .string("13 Chips"))
        #expect(MetadataValue.interpret("13 Chips", key: "Health Mate App Version") == .string("13 Chips"))
        #expect(MetadataValue.interpret("418 cm", key: "HKElevationAscended") == .quantity(Quantity(value: ExportNumber.parse("418")!, unit: "cm")))
        #expect(MetadataValue.interpret("50 m", key: "HKLapLength") == .quantity(Quantity(value: ExportNumber.parse("50")!, unit: "m")))
        // Keys that keep Apple's prefix in the export are recognised too.
        #expect(MetadataValue.interpret("72.5 dBASPL", key: "HKMetadataKeyAudioExposureLevel") == .quantity(Quantity(value: ExportNumber.parse("72.5")!, unit: "dBASPL")))
        // A number only under a key HealthKit stores as a number (issue 39): under a string key
        // the text is the string printed.
        #expect(MetadataValue.interpret("1", key: "HKFoodBrandName") == .string("1"))
        #expect(MetadataValue.interpret("1", key: "HKWasUserEntered") == .number(ExportNumber.parse("1")!))
        // A quantity read back from an earlier version's JSON follows the key rule as well.
        #expect(MetadataValue.quantity(Quantity(value: ExportNumber.parse("13")!, unit: "Chips")).held(under: "HKFoodBrandName") == .string("13 Chips"))
    }

    @Test func humidityIsThePercentageHealthKitHolds() {
        let old = MetadataValue.interpret("64 %", key: "HKWeatherHumidity")
        let recent = MetadataValue.interpret("6400 %", key: "HKWeatherHumidity")
        #expect(old == recent)
        #expect(recent == .quantity(Quantity(value: ExportNumber(64), unit: "%")))
        #expect(recent.text == "64 %")
        #expect(MetadataValue.interpret("94.5 %", key: "HKWeatherHumidity").text == "94.5 %")
        // Only humidity is rescaled: a slope grade over 100 % is a real value.
        #expect(MetadataValue.interpret("120 %", key: "HKAlpineSlopeGrade").text == "120 %")
    }

    @Test func typingValuesByKeyKeepsEveryUUID() {
        // uuids were derived when `13 Chips` read as a quantity; the string it reads as now
        // must give the same uuid, or stores and anchors would see the object as replaced.
        var encoder = CanonicalEncoder()
        let asString = ObjectIdentity.uuid(of: sample(metadata: [MetadataEntry(key: "HKFoodBrandName", value: .string("13 Chips"))]), encoder: &encoder)
        let asQuantity = ObjectIdentity.uuid(
            of: sample(metadata: [MetadataEntry(key: "HKFoodBrandName", value: .quantity(Quantity(value: ExportNumber.parse("13")!, unit: "Chips")))]),
            encoder: &encoder)
        let other = ObjectIdentity.uuid(of: sample(metadata: [MetadataEntry(key: "HKFoodBrandName", value: .string("14 Chips"))]), encoder: &encoder)
        #expect(asString == asQuantity)
        #expect(asString != other)
        let humidity = ObjectIdentity.uuid(of: sample(metadata: [MetadataEntry(key: "HKWeatherHumidity", value: .interpret("6400 %", key: "HKWeatherHumidity"))]), encoder: &encoder)
        let printed = ObjectIdentity.uuid(of: sample(metadata: [MetadataEntry(key: "HKWeatherHumidity", value: .interpret("6400 %"))]), encoder: &encoder)
        #expect(humidity == printed)
    }
}
