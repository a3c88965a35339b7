import Foundation
import HealthModel
import PropertyBased
import Testing
@testable import HealthQuery

/// Properties of the day's totals and the night's sleep over random samples, where the order of
/// the samples and the way a read is cut must not matter: a parallel read hands the collector
/// batches (`SummaryRecordBatch`) cut anywhere, the sorter spills runs of any length, and an
/// export lists its samples in any order.
@Suite struct SummaryOrderPropertyTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let sources: [(name: String, device: Device?)] = [
        ("Watch", Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch")),
        ("iPhone", Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone")),
        ("Pedometer++", nil),
        ("Sleep Cycle", nil),
    ]
    /// 2024-03-01T00:00:00Z.
    static let base: Int64 = 1_709_251_200

    /// One random sample: which source, where it starts (minutes after `base`), how long it
    /// lasts (minutes), its value (steps) or stage (sleep).
    struct Spec: Sendable, CustomStringConvertible {
        var source: Int
        var start: Int
        var minutes: Int
        var value: Int
        var description: String { "\(SummaryOrderPropertyTests.sources[source].name) +\(start)m \(minutes)m \(value)" }
    }

    static func attributes(_ type: String, _ spec: Spec, startMinute: Int) -> SampleAttributes {
        let source = sources[spec.source]
        let start = base + Int64(startMinute) * 60
        return SampleAttributes(
            sampleType: ObjectType(recordType: type), sourceRevision: SourceRevision(source: Source(name: source.name)),
            device: source.device, startDate: ExportTimestamp(secondsSince1970: start, utcOffsetSeconds: 0),
            endDate: ExportTimestamp(secondsSince1970: start + Int64(spec.minutes) * 60, utcOffsetSeconds: 0))
    }

    static func steps(_ spec: Spec) -> HealthObject {
        .quantitySample(
            QuantitySample(
                sample: attributes("HKQuantityTypeIdentifierStepCount", spec, startMinute: spec.start),
                quantity: Quantity(value: ExportNumber(spec.value), unit: "count")))
    }

    static let stages = [
        "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep", "HKCategoryValueSleepAnalysisAsleepREM",
        "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAwake", "HKCategoryValueSleepAnalysisInBed",
    ]

    /// A sleep sample within one night: from 21:00 on 1 March to 09:00 on 2 March (UTC), so
    /// every sample belongs to the night of 2 March and none is a nap.
    static func sleep(_ spec: Spec) -> HealthObject {
        let start = 21 * 60 + spec.start % (11 * 60)
        var bounded = spec
        bounded.minutes = min(spec.minutes, 21 * 60 + 12 * 60 - start)
        return .categorySample(
            CategorySample(
                sample: attributes("HKCategoryTypeIdentifierSleepAnalysis", bounded, startMinute: start),
                value: CategoryValue.interpret(stages[spec.value % stages.count])))
    }

    static let spec = zip(Gen.int(in: 0...3), Gen.int(in: 0...(2 * 24 * 60)), Gen.int(in: 1...240), Gen.int(in: 0...5000))
        .map { Spec(source: $0, start: $1, minutes: $2, value: $3) }

    /// Every day and night of `objects`, added one at a time or handed over in batches cut
    /// after the given counts, with the sorter's runs `runCapacity` records long.
    static func summarize(
        _ objects: [HealthObject], priority: [String] = [], cuts: [Int] = [], runCapacity: Int = 262_144
    ) throws -> ([DailySummary], [SleepNight]) {
        let collector = SummaryCollector(priority: SourcePriority(explicit: priority), runCapacity: runCapacity)
        if cuts.isEmpty {
            for object in objects { try collector.add(object) }
        } else {
            var rest = objects[...]
            for cut in cuts + [objects.count] where !rest.isEmpty {
                let batch = collector.makeBatch()
                for object in rest.prefix(max(1, cut)) { batch.add(object) }
                rest = rest.dropFirst(max(1, cut))
                try collector.absorb(batch)
            }
        }
        var days: [DailySummary] = []
        var nights: [SleepNight] = []
        try collector.finish(timeZone: utc, daily: { days.append($0) }, night: { nights.append($0) })
        return (days, nights)
    }

    /// With every source ranked (`--source-priority`), a day's totals are the same whatever
    /// order the samples come in. (Without a list, sources of one tier rank by first
    /// appearance, as the Health app ranks a new source last: there the order is the data.)
    @Test func aDaysTotalsDoNotDependOnTheOrderOfTheSamples() async {
        let priority = Self.sources.map(\.name)
        await propertyCheck(count: 60, input: Self.spec.array(of: 1...30), Gen.int(in: 0...1_000_000)) { specs, seed in
            let objects = specs.map(Self.steps)
            var generator = SplitMix(seed: UInt64(seed))
            let shuffled = objects.shuffled(using: &generator)
            let (days, _) = try Self.summarize(objects, priority: priority)
            let (again, _) = try Self.summarize(shuffled, priority: priority)
            #expect(days.map(\.date) == again.map(\.date))
            for (one, other) in zip(days, again) {
                #expect(abs((one.sum ?? 0) - (other.sum ?? 0)) <= 1e-9 * max(1, abs(one.sum ?? 0)), "\(one.date)")
                #expect(one.count == other.count && one.sources == other.sources)
            }
        }
    }

    /// However a read is cut into batches, and however long the sorter's runs, the days and
    /// nights are the ones a single pass gives, to the bit.
    @Test func theChunkingOfTheReadChangesNothing() async {
        await propertyCheck(
            count: 60, input: Self.spec.array(of: 1...30), Gen.int(in: 1...7).array(of: 0...5), Gen.int(in: 2...16)
        ) { specs, cuts, runCapacity in
            let objects = specs.enumerated().map { $0.offset % 3 == 0 ? Self.sleep($0.element) : Self.steps($0.element) }
            let whole = try Self.summarize(objects)
            let cut = try Self.summarize(objects, cuts: cuts, runCapacity: runCapacity)
            #expect(cut.0 == whole.0)
            #expect(cut.1 == whole.1)
        }
    }

    /// A night's asleep time never exceeds the union of its samples' asleep intervals, across
    /// every source, in whatever order they come: overlapping sources count the time once.
    @Test func aNightsSleepNeverExceedsTheUnionOfItsAsleepIntervals() async {
        await propertyCheck(count: 80, input: Self.spec.array(of: 1...25), Gen.int(in: 0...1_000_000)) { specs, seed in
            var generator = SplitMix(seed: UInt64(seed))
            let objects = specs.map(Self.sleep).shuffled(using: &generator)
            // The union of the asleep intervals, worked out here: sorted, merged, summed.
            var intervals: [(Int64, Int64)] = []
            for object in objects {
                guard case .categorySample(let c) = object, c.value.name?.contains("Asleep") == true else { continue }
                intervals.append((c.sample.startDate.secondsSince1970, c.sample.endDate.secondsSince1970))
            }
            intervals.sort { $0.0 < $1.0 }
            var union: Int64 = 0
            var current: (Int64, Int64)? = nil
            for interval in intervals {
                if let open = current, interval.0 <= open.1 {
                    current = (open.0, max(open.1, interval.1))
                } else {
                    if let open = current { union += open.1 - open.0 }
                    current = interval
                }
            }
            if let open = current { union += open.1 - open.0 }
            let (_, nights) = try Self.summarize(objects)
            #expect(nights.count <= 1)
            let asleep = nights.first?.asleep ?? 0
            #expect(asleep <= Double(union) + 1e-6, "asleep \(asleep) s > union \(union) s")
            #expect(asleep >= 0)
            // With every source ranked, the same night in another order.
            let priority = Self.sources.map(\.name)
            let (_, ranked) = try Self.summarize(objects, priority: priority)
            let (_, again) = try Self.summarize(objects.reversed(), priority: priority)
            #expect(again == ranked)
        }
    }
}

/// A seeded generator, so that a failing shuffle can be replayed from the seed the property
/// check prints.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
