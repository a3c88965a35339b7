import Foundation
import HealthModel

/// The named zone whose clock a Health Connect export's records keep, found from their own UTC
/// offsets: where days are cut when no sample names a zone.
///
/// Health Connect cuts each record's day in the record's own offset (`LocalTimeRangeFilter`),
/// and its records carry the offset they were written in: +01:00 all winter and +02:00 all
/// summer for a person in Paris. Cut at one fixed offset (the export's), half the year's days
/// would start an hour off. Cut in a zone whose offset on every record's day is the record's,
/// each day is the record's own local day, exactly as Health Connect cuts it; and a zone keeps
/// cutting later imports into a store right, where a fixed offset cannot.
///
/// (Apple's exports give every date the export's offset, quirk Q3: their offsets say nothing of
/// the person's clock, so only a Health Connect export's are tallied, `TimeZoneTally.countsOffsets`.)
///
/// The records' days are reduced to runs of consecutive days with the same most frequent offset;
/// a zone keeps the days of a run whose local noon it gives the run's offset. The zone keeping
/// the most records is chosen, when it keeps at least nine tenths of them (a trip abroad, or a
/// clock change a few days off, is the rest), and only
/// when the records show a clock change at all: with one offset throughout, a fixed offset cuts
/// the same days and assumes no summer time the records never showed. Several zones keep the
/// same clock (Paris and Berlin); the name is the most common zone's (`preferred`), else the
/// first in alphabetical order.
enum RecordClockZone {
    /// The most day-and-offset pairs tallied: a person's export has one or two a day, some
    /// 7,300 over ten years. A stranger's can give every record an offset of its own; past this
    /// none is inferred, and the tally stops growing (`TimeZoneTally.offsetsOverflowed`).
    static let maximumKeys = 100_000
    /// The most runs of days looked at: a person's clock changes twice a year, a trip adds two
    /// more (ten years of both, some 100 runs); past this (offsets changing every few days) no
    /// zone is asked, and days are cut at the export's offset, as before there was a clock to
    /// find: asking the system's 600 zones about thousands of runs costs seconds.
    static let maximumRuns = 200

    /// The packed key of a local day and an offset, as `TimeZoneTally` counts them.
    static func key(day: Int64, offset: Int32) -> Int64 { day << 32 | Int64(UInt32(bitPattern: offset)) }

    static func unpack(_ key: Int64) -> (day: Int64, offset: Int32) {
        (key >> 32, Int32(bitPattern: UInt32(truncatingIfNeeded: key)))
    }

    /// The local day of an instant at an offset.
    static func day(of seconds: Int64, offset: Int32) -> Int64 {
        let local = seconds + Int64(offset)
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    /// A run of consecutive days whose most frequent offset is the same.
    struct Run: Equatable {
        var first: Int64
        var last: Int64
        var offset: Int32
        /// The records of that offset on those days.
        var records: Int
    }

    /// The runs of `counts` (records per packed day and offset), in day order, and every
    /// record counted.
    static func runs(_ counts: [Int64: Int]) -> (runs: [Run], total: Int) {
        var byDay: [Int64: (offset: Int32, records: Int)] = [:]
        var total = 0
        for (key, records) in counts {
            let (day, offset) = unpack(key)
            total += records
            // The most records, ties to the smaller offset: the same answer in any order.
            if let known = byDay[day], (known.records, -known.offset) >= (records, -offset) { continue }
            byDay[day] = (offset, records)
        }
        var runs: [Run] = []
        for day in byDay.keys.sorted() {
            let (offset, records) = byDay[day]!
            if var run = runs.last, run.offset == offset, run.last == day - 1 {
                run.last = day
                run.records += records
                runs[runs.count - 1] = run
            } else {
                runs.append(Run(first: day, last: day, offset: offset, records: records))
            }
        }
        return (runs, total)
    }

    /// The records of `run` on the days whose local noon `zone` gives the run's offset: the run's
    /// records pro-rated by those days. The zone's offset is constant between its transitions,
    /// so it is asked once per stretch between two (twice a year for a zone with summer time),
    /// not once a day.
    static func records(kept zone: TimeZone, _ run: Run) -> Int {
        var kept: Int64 = 0
        var day = run.first
        while day <= run.last {
            let noon = Date(timeIntervalSince1970: TimeInterval(day * 86_400 + 43_200 - Int64(run.offset)))
            // The last day whose noon comes before the zone's next transition.
            var through = run.last
            if let next = zone.nextDaylightSavingTimeTransition(after: noon) {
                let beforeNext = Int64(next.timeIntervalSince1970.rounded(.up)) - 43_200 + Int64(run.offset) - 1
                through = max(day, min(run.last, beforeNext >= 0 ? beforeNext / 86_400 : (beforeNext - 86_399) / 86_400))
            }
            if zone.secondsFromGMT(for: noon) == Int(run.offset) { kept += through - day + 1 }
            day = through + 1
        }
        return Int(Int64(run.records) * kept / (run.last - run.first + 1))
    }

    /// The zone, or `nil` when the records show no clock change, or no zone keeps nine tenths
    /// of them.
    static func zone(_ counts: [Int64: Int]) -> TimeZone? {
        let (runs, total) = runs(counts)
        guard Set(runs.map(\.offset)).count > 1, total > 0, runs.count <= maximumRuns else { return nil }
        // The heaviest runs first: a zone that misses more than a tenth of the records is given
        // up as soon as it does, most zones after a run or two.
        let heaviest = runs.sorted { ($0.records, $1.first) > ($1.records, $0.first) }
        let allowed = total - (total * 9 + 9) / 10
        var best: (zone: TimeZone, records: Int)? = nil
        for identifier in candidates {
            guard let zone = TimeZone(identifier: identifier) else { continue }
            var kept = 0
            var missed = 0
            for run in heaviest {
                let records = Self.records(kept: zone, run)
                kept += records
                missed += run.records - records
                if missed > allowed { break }
            }
            guard missed <= allowed else { continue }
            if kept > best?.records ?? 0 { best = (zone, kept) }
            if kept == total { break }
        }
        return best?.zone
    }

    /// Every zone this system knows, the most common name of each clock first.
    static let candidates: [String] = {
        let known = Set(TimeZone.knownTimeZoneIdentifiers)
        return preferred.filter(known.contains) + known.subtracting(preferred).sorted()
    }()

    /// The zone most people of each clock would name: tried first, so that a person in Paris
    /// is told Europe/Paris, not Africa/Ceuta, which keeps the same clock.
    static let preferred: [String] = [
        "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles", "America/Anchorage",
        "Pacific/Honolulu", "America/Halifax", "America/St_Johns", "America/Mexico_City", "America/Sao_Paulo",
        "America/Argentina/Buenos_Aires", "America/Santiago", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris",
        "Europe/Berlin", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Europe/Stockholm", "Europe/Warsaw", "Europe/Athens",
        "Europe/Helsinki", "Europe/Istanbul", "Europe/Moscow", "Africa/Cairo", "Africa/Johannesburg", "Africa/Lagos", "Asia/Jerusalem",
        "Asia/Tehran", "Asia/Dubai", "Asia/Kolkata", "Asia/Shanghai", "Asia/Tokyo", "Asia/Seoul", "Asia/Singapore", "Australia/Sydney",
        "Australia/Adelaide", "Australia/Brisbane", "Australia/Perth", "Pacific/Auckland",
    ]
}
