import Foundation
import HealthModel

/// Gathers the sleep samples of one night at a time, in time order, and sums each night as the
/// Health app does (`SleepNight`).
///
/// **Which night.** A night runs from the evening boundary (18:00 by default) of one day to the
/// same time the next day, and is named by the date of the morning it ends; a sample belongs to
/// the night its start falls in. So sleep from 23:30 to 07:00 is the night of the morning's
/// date, an afternoon nap the night that ended that morning (as the Health app lists naps with
/// the day's sleep). The boundary is the wall-clock time in the summary's time zone: a night
/// across a change to or from summer time lasts 23 or 25 hours, and counts its real time.
///
/// **Overlaps are resolved, never added.** Time is cut at every sample boundary; each piece of
/// time covered by asleep or awake samples goes to the highest-priority source covering it (the
/// priority `stats` merges with: manual entries, Apple Watch, iPhone, others), in that source's
/// most precise value (a stage before awake, awake before unspecified asleep). Time in bed is
/// the union of every source's in-bed samples (an iPhone's in-bed interval around a Watch's
/// stages is one frame, not more sleep).
struct SleepNightBuilder {
    struct Sample {
        var start: Double
        var end: Double
        var value: Int
        var rank: SourceRank
        var source: Int
    }

    let nights: CalendarIntervals
    let timeZone: TimeZone
    private var current: Int?
    private var samples: [Sample] = []

    /// - Parameter evening: seconds after local midnight where one night ends and the next
    ///   begins.
    init(timeZone: TimeZone, evening: Int) {
        self.timeZone = timeZone
        let midnight = Double(CalendarDate.daysFromCivil(year: 2000, month: 1, day: 1)) * 86_400
        let local = midnight + Double(evening)
        let anchor = local - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
        nights = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: anchor), timeZone: timeZone)
    }

    /// Adds a sample (in time order); a night the samples have moved past is handed to `emit`.
    mutating func add(_ sample: Sample, sources: [String], emit: (SleepNight) throws -> Void) throws {
        let night = nights.index(of: Date(timeIntervalSince1970: sample.start))
        if let current, night != current {
            if let done = summarize(current, sources: sources) { try emit(done) }
            samples.removeAll(keepingCapacity: true)
        }
        current = night
        samples.append(sample)
    }

    /// Hands the last night to `emit`.
    mutating func finish(sources: [String], emit: (SleepNight) throws -> Void) throws {
        if let current, let done = summarize(current, sources: sources) { try emit(done) }
        samples = []
        current = nil
    }

    /// The more precise of two values one source gives the same time: a stage (deep, REM,
    /// core), then awake, then unspecified asleep.
    static func precision(_ value: Int) -> Int {
        switch value {
        case 4: return 5  // asleepDeep
        case 5: return 4  // asleepREM
        case 3: return 3  // asleepCore
        case 2: return 2  // awake
        default: return 1  // asleepUnspecified, and values a newer iOS adds
        }
    }

    private func summarize(_ index: Int, sources names: [String]) -> SleepNight? {
        let end = nights.start(of: index + 1)
        let local = end.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: end))
        let date = CalendarDate.civilFromDays(Int((local / 86_400).rounded(.down)))
        var seconds = [Int: Double]()
        var used = Set<Int>()
        var sleepStart: Double? = nil
        var sleepEnd: Double? = nil
        // Asleep and awake: the best-ranked source's most precise value, piece by piece.
        let sleep = samples.filter { $0.value != 0 && $0.end > $0.start }
        let boundaries = Array(Set(sleep.flatMap { [$0.start, $0.end] })).sorted()
        if boundaries.count >= 2 {
            for i in 0..<(boundaries.count - 1) {
                let a = boundaries[i], b = boundaries[i + 1]
                let covering = sleep.filter { $0.start <= a && $0.end >= b }
                guard let best = covering.map(\.rank).min() else { continue }
                let winners = covering.filter { $0.rank == best }
                guard let winner = winners.max(by: { Self.precision($0.value) < Self.precision($1.value) }) else { continue }
                let value = winner.value == 0 ? 1 : winner.value
                seconds[value, default: 0] += b - a
                for w in winners { used.insert(w.source) }
                if value != 2 {
                    sleepStart = min(sleepStart ?? a, a)
                    sleepEnd = max(sleepEnd ?? b, b)
                }
            }
        }
        // In bed: the union of every source's in-bed time.
        let beds = samples.filter { $0.value == 0 && $0.end > $0.start }.sorted { $0.start < $1.start }
        var inBed: Double? = nil
        if !beds.isEmpty {
            var total = 0.0
            var span = (beds[0].start, beds[0].end)
            for bed in beds.dropFirst() {
                if bed.start <= span.1 {
                    span.1 = max(span.1, bed.end)
                } else {
                    total += span.1 - span.0
                    span = (bed.start, bed.end)
                }
            }
            total += span.1 - span.0
            inBed = total
            for bed in beds { used.insert(bed.source) }
        }
        let unspecified = seconds.filter { ![2, 3, 4, 5].contains($0.key) }.values.reduce(0, +)
        guard inBed != nil || !seconds.isEmpty else { return nil }
        func timestamp(_ seconds: Double?) -> ExportTimestamp? {
            seconds.map {
                ExportTimestamp(
                    secondsSince1970: Int64($0.rounded(.down)),
                    utcOffsetSeconds: Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: $0))))
            }
        }
        return SleepNight(
            night: date, inBed: inBed, asleepUnspecified: unspecified, asleepCore: seconds[3] ?? 0, asleepDeep: seconds[4] ?? 0,
            asleepREM: seconds[5] ?? 0, awake: seconds[2] ?? 0, sleepStart: timestamp(sleepStart), sleepEnd: timestamp(sleepEnd),
            sources: used.map { names[$0] }.sorted())
    }
}
