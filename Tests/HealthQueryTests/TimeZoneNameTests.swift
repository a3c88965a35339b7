import Foundation
import Testing
@testable import HealthQuery

/// `--tz` takes a zone's name or an offset, as ISO 8601 writes one.
@Suite struct TimeZoneNameTests {
    @Test(arguments: [("+01:00", 3600), ("-0530", -19_800), ("+01", 3600), ("Z", 0), ("+14:00", 50_400), ("\u{2212}03:00", -10_800)])
    func anOffsetIsAFixedZone(text: String, seconds: Int) throws {
        let zone = try TimeZoneNameResolver.resolve(text)
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0)) == seconds)
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_720_000_000)) == seconds)  // July: no summer time
    }

    @Test func aNameKeepsSummerTimeAndNonsenseIsRefused() throws {
        let paris = try TimeZoneNameResolver.resolve("Europe/Paris")
        #expect(paris.secondsFromGMT(for: Date(timeIntervalSince1970: 1_720_000_000)) == 7200)
        for bad in ["+1:0", "+25:00", "+01:60", "01:00", "Mars/Base", ""] {
            #expect(throws: QueryError.self, "\(bad)") { try TimeZoneNameResolver.resolve(bad) }
        }
    }
}
