import Foundation
import HealthModel
import Testing

/// A sample's local times: its own zone, else the person's, never the export's printed offset.
@Suite struct LocalTimesTests {
    static func sample(_ start: String, zone: String? = nil) -> SampleAttributes {
        SampleAttributes(
            sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierStepCount"), sourceRevision: SourceRevision(source: Source(name: "iPhone")),
            startDate: ExportTimestamp.parse(start)!, endDate: ExportTimestamp.parse(start)!,
            metadata: Metadata(zone.map { [MetadataEntry(key: "HKTimeZone", value: .interpret($0))] } ?? []))
    }

    /// A walk at 08:30 in Paris on 1 July, in an export made in January: Apple prints
    /// `07:30:00 +0100` (the export's offset). Its local time is 08:30, at +02:00.
    @Test func aSummerSampleInAWinterExportIsOnTheSummerClock() {
        let local = LocalTimes(personZone: TimeZone(identifier: "Europe/Paris"))
        let times = local.times(of: Self.sample("2024-07-01 07:30:00 +0100"))
        #expect(times?.zone == "Europe/Paris")
        #expect(times?.start.iso8601 == "2024-07-01T08:30:00+02:00")
        // And a January sample of the same export keeps +01:00.
        #expect(local.times(of: Self.sample("2024-01-15 07:30:00 +0100"))?.start.iso8601 == "2024-01-15T07:30:00+01:00")
        // Across the change (31 March 2024, 02:00 → 03:00 in Paris), minute by minute.
        #expect(local.times(of: Self.sample("2024-03-31 01:59:00 +0100"))?.start.iso8601 == "2024-03-31T01:59:00+01:00")
        #expect(local.times(of: Self.sample("2024-03-31 02:00:00 +0100"))?.start.iso8601 == "2024-03-31T03:00:00+02:00")
    }

    /// A sample's own `HKTimeZone` comes first (a workout in New York of a Paris resident);
    /// without a person's zone, only such samples have local times; an unknown zone name is
    /// the person's zone.
    @Test func aSamplesOwnZoneComesFirst() {
        let local = LocalTimes(personZone: TimeZone(identifier: "Europe/Paris"))
        let trip = local.times(of: Self.sample("2024-07-01 19:00:00 +0100", zone: "America/New_York"))
        #expect(trip?.zone == "America/New_York" && trip?.start.iso8601 == "2024-07-01T14:00:00-04:00")
        #expect(local.times(of: Self.sample("2024-07-01 19:00:00 +0100", zone: "Mars/Olympus"))?.zone == "Europe/Paris")
        let unknown = LocalTimes(personZone: nil)
        #expect(unknown.times(of: Self.sample("2024-07-01 19:00:00 +0100")) == nil)
        #expect(unknown.times(of: Self.sample("2024-07-01 19:00:00 +0100", zone: "Asia/Tokyo"))?.start.iso8601 == "2024-07-02T03:00:00+09:00")
    }
}
