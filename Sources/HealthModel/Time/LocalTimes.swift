import Foundation

/// A sample's times on the clock of where it happened: the wall-clock start and end an output
/// shows beside the instants (`localStartDate`, `localEndDate`, `timeZone`).
///
/// Apple prints every date of an export with the phone's offset at the moment of export (quirk
/// Q3), so a walk at 08:30 in Paris in July reads `07:30+01:00` in an export made in January:
/// the instant is right, the clock an hour off for half the year. Adding the printed offset
/// cannot fix that. The zone a sample happened in is its own `HKTimeZone` (Apple writes it on
/// sleep and workouts), else the person's zone as every summary decides it (`--tz`; the store's
/// zone; else the zone the export's sleep and workouts name most, `TimeZoneTally`); with neither
/// known, a sample has no local times.
///
/// Keeps the zones it has met and, per zone, the span of time its current offset holds for (to
/// the next change of clock), so a record costs a comparison, not a time zone database lookup:
/// one instance per writer, never shared between threads.
///
/// For example:
/// ```swift
/// let local = LocalTimes(personZone: TimeZone(identifier: "Europe/Paris"))
/// local.times(of: sample)   // (zone: "Europe/Paris", start: 2024-07-01T08:30:00+02:00, …)
/// ```
public final class LocalTimes {
    /// The zone of samples that name none; `nil` when unknown (they then have no local times).
    public private(set) var personZone: TimeZone?
    /// Its name, as outputs give it (`timeZone`).
    public private(set) var personZoneName: String?
    private var zones: [String: TimeZone?] = [:]
    private var spans: [String: (from: Int64, until: Int64, offset: Int32)] = [:]
    private var last: (name: String, zone: TimeZone)?

    public init(personZone: TimeZone?) {
        self.personZone = personZone
        personZoneName = personZone?.identifier
    }

    /// Learns the person's zone from the export's header when none was decided before the read
    /// (standard input, which cannot be read twice): the zone healthport's own output names
    /// (`ExportHeader.timeZone`), else the export's offset, as every summary falls back to it.
    public func begin(_ header: ExportHeader) {
        guard personZone == nil else { return }
        if let name = header.timeZone, let zone = TimeZone(identifier: name) {
            personZone = zone
            personZoneName = name
        } else if let offset = header.exportDate?.utcOffsetSeconds, let zone = TimeZone(secondsFromGMT: Int(offset)) {
            personZone = zone
            personZoneName = zone.identifier
        }
    }

    /// A new instance with the same zone and empty caches: for another thread's writer.
    public func copy() -> LocalTimes { LocalTimes(personZone: personZone) }

    /// A sample's local times: its zone's name, and its start and end with that zone's offset
    /// then (the same instants).
    public struct Times: Sendable, Equatable {
        public var zone: String
        public var start: ExportTimestamp
        public var end: ExportTimestamp
    }

    /// The sample's local times, or `nil` when its zone is unknown.
    public func times(of sample: SampleAttributes) -> Times? {
        let named: (String, TimeZone)
        if case .string(let name)? = sample.metadata["HKTimeZone"], let own = zone(named: name) {
            named = (name, own)
        } else if let personZone, let personZoneName {
            named = (personZoneName, personZone)
        } else {
            return nil
        }
        return Times(zone: named.0, start: local(sample.startDate, named.0, named.1), end: local(sample.endDate, named.0, named.1))
    }

    /// A zone by its database name; `nil` for a name this system does not know (a sample that
    /// names one is given the person's zone).
    private func zone(named name: String) -> TimeZone? {
        if let last, last.name == name { return last.zone }
        let found: TimeZone?
        if let known = zones[name] {
            found = known
        } else {
            // Bounded: a hostile export could name a million zones; past a hundred, the rare
            // others are looked up each time.
            found = TimeZone(identifier: name)
            if zones.count < 100 { zones[name] = found }
        }
        if let found { last = (name, found) }
        return found
    }

    /// `timestamp`'s instant with `zone`'s offset then.
    private func local(_ timestamp: ExportTimestamp, _ name: String, _ zone: TimeZone) -> ExportTimestamp {
        let seconds = timestamp.secondsSince1970
        if let span = spans[name], span.from <= seconds && seconds < span.until {
            return ExportTimestamp(secondsSince1970: seconds, utcOffsetSeconds: span.offset)
        }
        let date = Date(timeIntervalSince1970: Double(seconds))
        let offset = Int32(zone.secondsFromGMT(for: date))
        // The offset holds from here to the zone's next change of clock (or for a day, for a
        // zone whose transitions Foundation does not give).
        let until = zone.nextDaylightSavingTimeTransition(after: date).map { Int64($0.timeIntervalSince1970.rounded(.down)) }
            ?? seconds + 86_400
        if spans.count < 100 || spans[name] != nil { spans[name] = (seconds, max(until, seconds + 1), offset) }
        return ExportTimestamp(secondsSince1970: seconds, utcOffsetSeconds: offset)
    }
}

/// Whether an output gives local times, and the zone of samples that name none: a value every
/// thread can hold, from which each writer (a parallel read's chunks included) makes its own
/// `LocalTimes`.
public enum LocalTimeSetting: Sendable, Equatable {
    /// No local times (a de-identified output: the zone would locate the person).
    case none
    /// Local times, in each sample's own zone, else `personZone` (`nil`: unknown, so such
    /// samples have none).
    case given(personZone: TimeZone?)

    /// A `LocalTimes` for one writer, or `nil` for none.
    public func makeLocalTimes() -> LocalTimes? {
        guard case .given(let zone) = self else { return nil }
        return LocalTimes(personZone: zone)
    }
}

extension LocalTimes {
    /// The setting this instance was made from.
    public var setting: LocalTimeSetting { .given(personZone: personZone) }
}
