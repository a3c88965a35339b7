import Foundation
import HealthModel

/// Gathers the sleep samples of one night at a time, in time order, and sums each night as the
/// Health app does (`SleepNight`).
///
/// **Which night.** A night runs from the evening boundary (18:00 by default) of one day to the
/// same time the next day, and is named by the date of the morning it ends; a sample belongs to
/// the night its start falls in. So sleep from 23:30 to 07:00 is the night of the morning's
/// date. The boundary is the wall-clock time in the summary's time zone: a night across a change
/// to or from summer time lasts 23 or 25 hours, and counts its real time.
///
/// **Sessions and naps.** A night's samples fall into sessions: runs of samples (any value, in
/// bed included) with less than `sessionGap` (an hour) between one's end and the next's start.
/// A session that begins in the day (from `napHour`, 10:00, to the evening boundary) with less
/// than `napLimit` (three hours) asleep is a nap: its sleep is the day's naps (`SleepNight.naps`),
/// never the night's asleep time, stages, in bed or times. Two sessions at night (awake for two
/// hours at 03:00) are one night's sleep; a day sleeper's seven hours from 09:00 are a night's.
///
/// **Overlaps are resolved, never added.** Time is cut at every sample boundary; each piece of
/// time covered by asleep or awake samples goes to the highest-priority source covering it (the
/// priority `stats` merges with: manual entries, Apple Watch, iPhone, others), in that source's
/// most precise value (a stage before awake, awake before unspecified asleep). Time in bed is
/// the union of every source's in-bed samples (an iPhone's in-bed interval around a Watch's
/// stages is one frame, not more sleep). A night with no in-bed sample (watchOS 11 writes
/// stages only) has no time in bed, never a guessed one.
struct SleepNightBuilder {
    struct Sample {
        var start: Double
        var end: Double
        var value: Int
        var rank: SourceRank
        var source: Int
    }

    /// The longest gap within one session of sleep, in seconds.
    static let sessionGap: Double = 3600
    /// Where the day begins for naps: seconds after local midnight (10:00).
    static let napHour = 10 * 3600
    /// The most sleep a nap holds, in seconds (three hours).
    static let napLimit: Double = 3 * 3600

    let nights: CalendarIntervals
    let timeZone: TimeZone
    let evening: Int
    private var current: Int?
    private var samples: [Sample] = []

    /// - Parameter evening: seconds after local midnight where one night ends and the next
    ///   begins.
    init(timeZone: TimeZone, evening: Int) {
        self.timeZone = timeZone
        self.evening = evening
        let midnight = Double(CalendarDate.daysFromCivil(year: 2000, month: 1, day: 1)) * 86_400
        let local = midnight + Double(evening)
        let anchor = local - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
        nights = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: anchor), timeZone: timeZone)
    }

    /// A night and the instants it spans, `[evening before, evening]`.
    typealias Emit = (_ night: SleepNight, _ spanStart: Double, _ spanEnd: Double) throws -> Void

    /// Adds a sample (in time order); a night the samples have moved past is handed to `emit`.
    mutating func add(_ sample: Sample, sources: [String], emit: Emit) throws {
        let night = nights.index(of: Date(timeIntervalSince1970: sample.start))
        if let current, night != current {
            if let done = summarize(current, sources: sources) {
                try emit(done, nights.start(of: current).timeIntervalSince1970, nights.start(of: current + 1).timeIntervalSince1970)
            }
            samples.removeAll(keepingCapacity: true)
        }
        current = night
        samples.append(sample)
    }

    /// Hands the last night to `emit`.
    mutating func finish(sources: [String], emit: Emit) throws {
        if let current, let done = summarize(current, sources: sources) {
            try emit(done, nights.start(of: current).timeIntervalSince1970, nights.start(of: current + 1).timeIntervalSince1970)
        }
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

    /// Whether a value is sleep (`HKCategoryValueSleepAnalysisAsleepValues`, and a value a
    /// newer iOS adds): neither in bed (0) nor awake (2).
    static func isAsleep(_ value: Int) -> Bool { value != 0 && value != 2 }

    /// The night's samples split into the night's own and its naps (`sessionGap`, `napHour`,
    /// `napLimit`), each in time order.
    func sessions(_ samples: [Sample]) -> (night: [Sample], naps: [Sample]) {
        let ordered = samples.filter { $0.end >= $0.start }.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var night: [Sample] = []
        var naps: [Sample] = []
        var session: [Sample] = []
        var sessionEnd = -Double.infinity
        func close() {
            guard let first = session.first else { return }
            let asleep = Self.unionLength(session.filter { Self.isAsleep($0.value) })
            let offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: first.start)))
            let local = first.start + offset
            let timeOfDay = Int(local - (local / 86_400).rounded(.down) * 86_400)
            let isNap = asleep < Self.napLimit && timeOfDay >= Self.napHour && timeOfDay < evening
            if isNap { naps += session } else { night += session }
            session.removeAll(keepingCapacity: true)
        }
        for sample in ordered {
            if !session.isEmpty && sample.start - sessionEnd >= Self.sessionGap { close() }
            sessionEnd = session.isEmpty ? sample.end : max(sessionEnd, sample.end)
            session.append(sample)
        }
        close()
        return (night, naps)
    }

    /// The length of the union of the samples' intervals.
    static func unionLength(_ samples: [Sample]) -> Double {
        var total = 0.0
        var span: (Double, Double)? = nil
        for sample in samples.sorted(by: { $0.start < $1.start }) {
            if let current = span, sample.start <= current.1 {
                span = (current.0, max(current.1, sample.end))
            } else {
                if let current = span { total += current.1 - current.0 }
                span = (sample.start, sample.end)
            }
        }
        if let span { total += span.1 - span.0 }
        return total
    }

    /// What a set of samples sums to: seconds per value (the best-ranked source's most precise
    /// value, piece by piece), the union of the in-bed time, when sleep began and ended, and
    /// the sources and samples that counted.
    struct Tally {
        var seconds: [Int: Double] = [:]
        var inBed: Double? = nil
        var sleepStart: Double? = nil
        var sleepEnd: Double? = nil
        var sources = Set<Int>()
        var samples = 0

        var asleep: Double { seconds.filter { Self.asleep($0.key) }.values.reduce(0, +) }
        private static func asleep(_ value: Int) -> Bool { value != 2 }
    }

    static func tally(_ samples: [Sample]) -> Tally {
        var tally = Tally()
        var counted = Set<Int>()
        // Asleep and awake: the best-ranked source's most precise value, piece by piece.
        let sleep = samples.enumerated().filter { $0.element.value != 0 && $0.element.end > $0.element.start }
        let boundaries = Array(Set(sleep.flatMap { [$0.element.start, $0.element.end] })).sorted()
        if boundaries.count >= 2 {
            for i in 0..<(boundaries.count - 1) {
                let a = boundaries[i], b = boundaries[i + 1]
                let covering = sleep.filter { $0.element.start <= a && $0.element.end >= b }
                guard let best = covering.map(\.element.rank).min() else { continue }
                let winners = covering.filter { $0.element.rank == best }
                guard let winner = winners.max(by: { precision($0.element.value) < precision($1.element.value) }) else { continue }
                let value = winner.element.value == 0 ? 1 : winner.element.value
                tally.seconds[value, default: 0] += b - a
                for w in winners { tally.sources.insert(w.element.source) }
                counted.insert(winner.offset)
                if value != 2 {
                    tally.sleepStart = min(tally.sleepStart ?? a, a)
                    tally.sleepEnd = max(tally.sleepEnd ?? b, b)
                }
            }
        }
        // In bed: the union of every source's in-bed time.
        let beds = samples.enumerated().filter { $0.element.value == 0 && $0.element.end > $0.element.start }
        if !beds.isEmpty {
            tally.inBed = unionLength(beds.map(\.element))
            for bed in beds {
                tally.sources.insert(bed.element.source)
                counted.insert(bed.offset)
            }
        }
        tally.samples = counted.count
        return tally
    }

    private func summarize(_ index: Int, sources names: [String]) -> SleepNight? {
        let end = nights.start(of: index + 1)
        let local = end.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: end))
        let date = CalendarDate.civilFromDays(Int((local / 86_400).rounded(.down)))
        let (nightSamples, napSamples) = sessions(samples)
        let night = Self.tally(nightSamples)
        let naps = Self.tally(napSamples)
        guard night.inBed != nil || !night.seconds.isEmpty || !naps.seconds.isEmpty else { return nil }
        let seconds = night.seconds
        let unspecified = seconds.filter { ![2, 3, 4, 5].contains($0.key) }.values.reduce(0, +)
        func timestamp(_ seconds: Double?) -> ExportTimestamp? {
            seconds.map {
                ExportTimestamp(
                    secondsSince1970: Int64($0.rounded(.down)),
                    utcOffsetSeconds: Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: $0))))
            }
        }
        return SleepNight(
            night: date, inBed: night.inBed, asleepUnspecified: unspecified, asleepCore: seconds[3] ?? 0, asleepDeep: seconds[4] ?? 0,
            asleepREM: seconds[5] ?? 0, awake: seconds[2] ?? 0, sleepStart: timestamp(night.sleepStart), sleepEnd: timestamp(night.sleepEnd),
            naps: naps.asleep, sources: night.sources.union(naps.sources).map { names[$0] }.sorted(),
            sampleCount: night.samples + naps.samples)
    }
}
