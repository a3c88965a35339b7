import Foundation
import HealthModel

/// The `HKTimeZone`s samples name, counted to choose where days are cut when the person names
/// no zone: the zone the person lived in.
///
/// Apple's devices write a sample's zone on sleep and workouts (the witnesses), seldom on
/// anything else; steps and heart rates name none. So the zone is the witnesses' most frequent
/// one, else the most frequent among the other samples read (an app that names zones on its
/// own type), else nothing (the caller falls back to the export's UTC offset). Every summary
/// reads the witnesses beside the types it counts (`reading(_:)`), so `stats --type Steps`,
/// `healthport summary` and the store cut the same days, not steps at the export's offset
/// and sleep in the person's zone.
///
/// For example:
/// ```swift
/// var tally = TimeZoneTally()
/// tally.count(sample)            // a sleep sample with HKTimeZone Europe/Paris
/// tally.mostFrequent             // Europe/Paris
/// ```
public struct TimeZoneTally: Sendable, Equatable {
    /// The types whose samples' `HKTimeZone` decides first: sleep analysis and workouts.
    public static let witnessTypes: Set<String> = ["HKCategoryTypeIdentifierSleepAnalysis", ObjectType.workout.identifier]

    private(set) var witnesses: [String: Int] = [:]
    private(set) var others: [String: Int] = [:]
    /// Whether the samples' own UTC offsets are counted (`offsets`): a Health Connect export's,
    /// whose records carry the offset they were written in (`RecordClockZone`). Apple's give
    /// every date the export's offset, which says nothing of the person's clock.
    public var countsOffsets = false
    /// Samples by local day and offset (`RecordClockZone.key`), when `countsOffsets`: a few
    /// entries a day, whatever the number of samples; at most `RecordClockZone.maximumKeys`
    /// (a stranger's export can give every record an offset of its own), past which no zone is
    /// inferred (`offsetsOverflowed`).
    private(set) var offsets: [Int64: Int] = [:]
    private(set) var offsetsOverflowed = false

    public init() {}

    /// The types a summary of `types` reads to decide its zone: those, and the witnesses
    /// (whose samples then only vote). `nil` (every type) stays `nil`.
    public static func reading(_ types: Set<String>?) -> Set<String>? {
        types.map { $0.union(witnessTypes) }
    }

    /// Counts the sample's `HKTimeZone`, if it names one.
    public mutating func count(_ sample: SampleAttributes) {
        if countsOffsets, !offsetsOverflowed {
            let offset = sample.startDate.utcOffsetSeconds
            let key = RecordClockZone.key(day: RecordClockZone.day(of: sample.startDate.secondsSince1970, offset: offset), offset: offset)
            if let known = offsets[key] {
                offsets[key] = known + 1
            } else if offsets.count < RecordClockZone.maximumKeys {
                offsets[key] = 1
            } else {
                offsetsOverflowed = true
                offsets = [:]
            }
        }
        guard case .string(let zone)? = sample.metadata["HKTimeZone"] else { return }
        if Self.witnessTypes.contains(sample.sampleType.identifier) {
            witnesses[zone, default: 0] += 1
        } else {
            others[zone, default: 0] += 1
        }
    }

    public mutating func merge(_ other: TimeZoneTally) {
        witnesses.merge(other.witnesses, uniquingKeysWith: +)
        others.merge(other.others, uniquingKeysWith: +)
        offsets.merge(other.offsets, uniquingKeysWith: +)
        offsetsOverflowed = offsetsOverflowed || other.offsetsOverflowed || offsets.count > RecordClockZone.maximumKeys
        if offsetsOverflowed { offsets = [:] }
        countsOffsets = countsOffsets || other.countsOffsets
    }

    /// Every zone named, and how often.
    public var counts: [String: Int] { witnesses.merging(others, uniquingKeysWith: +) }

    /// The witnesses' most frequent zone, else the other samples' (ties to the name first in
    /// order), else the zone whose clock the samples' own offsets keep (`RecordClockZone`, when
    /// they are counted); `nil` when no sample named one this system knows.
    public var mostFrequent: TimeZone? {
        Self.mostFrequent(witnesses) ?? Self.mostFrequent(others) ?? (countsOffsets && !offsetsOverflowed ? RecordClockZone.zone(offsets) : nil)
    }

    static func mostFrequent(_ counts: [String: Int]) -> TimeZone? {
        counts.max { ($0.value, $1.key) < ($1.value, $0.key) }.flatMap { TimeZone(identifier: $0.key) }
    }
}
