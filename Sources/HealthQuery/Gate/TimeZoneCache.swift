import Foundation

/// Time zones by name, made once: `TimeZone(identifier:)` reads the zone's data each time, and a
/// window read in the samples' own time looks a zone up for every sample.
enum TimeZoneCache {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var zones: [String: TimeZone?] = [:]

    static func zone(named name: String) -> TimeZone? {
        lock.withLock {
            if let known = zones[name] { return known }
            // At most a few hundred zones exist; a hostile export naming more is not cached.
            let zone = TimeZone(identifier: name)
            if zones.count < 1_000 { zones[name] = zone }
            return zone
        }
    }
}
