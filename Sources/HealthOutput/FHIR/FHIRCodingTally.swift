import HealthModel

/// How the resources of a FHIR run were coded, per object kind: what a study asks first ("how
/// much of this joins our LOINC-coded data?") and what the run's summary prints.
///
/// Counted as written, after the policy gate: a type the policy denies is never counted.
public struct FHIRCodingTally: Sendable, Equatable {
    /// How one resource was coded.
    public enum Coding: String, Sendable, CaseIterable {
        /// HealthKitOnFHIR's table gives the type a LOINC code (it also carries the HealthKit
        /// one).
        case loinc
        /// The table maps the type, with HealthKit's own code only (as HealthKitOnFHIR writes it).
        case healthKit
        /// The table does not map the type: healthport's fallback, coded with the type's
        /// HealthKit identifier in the same code system.
        case fallback
        /// A clinical record's own FHIR resource, passed through (R4), or carried whole in a
        /// `DocumentReference` (DSTU2).
        case clinical
    }

    /// Counts by kind (`quantitySample`, `categorySample`, … as NDJSON's `kind`) and coding.
    public private(set) var counts: [String: [Coding: Int]] = [:]
    /// What was not written, by reason (a clinical record whose resource file is missing,
    /// resources other than Observations on standard output), with counts.
    public internal(set) var leftOut: [String: Int] = [:]

    public init() {}

    mutating func add(kind: String, _ coding: Coding) {
        counts[kind, default: [:]][coding, default: 0] += 1
    }

    /// Adds the Observations of the day table's days (`day`, all LOINC) and of the nights
    /// (`night`, HealthKit's code), and what each left out.
    mutating func add(days: FHIRDailyObservationEncoder, nights: FHIRNightObservationEncoder) {
        let daysWritten = days.written.values.reduce(0, +)
        if daysWritten > 0 { counts["day", default: [:]][.loinc, default: 0] += daysWritten }
        if nights.written > 0 { counts["night", default: [:]][.healthKit, default: 0] += nights.written }
        for (reason, count) in days.leftOut.merging(nights.leftOut, uniquingKeysWith: +) { leftOut[reason, default: 0] += count }
    }

    /// Adds another tally (a chunk's, or a batch's).
    public mutating func merge(_ other: FHIRCodingTally) {
        for (kind, byCoding) in other.counts {
            for (coding, count) in byCoding { counts[kind, default: [:]][coding, default: 0] += count }
        }
        for (reason, count) in other.leftOut { leftOut[reason, default: 0] += count }
    }

    /// Resources written in all.
    public var total: Int { counts.values.reduce(0) { $0 + $1.values.reduce(0, +) } }

    /// Resources coded one way, over every kind.
    public func count(_ coding: Coding) -> Int { counts.values.reduce(0) { $0 + ($1[coding] ?? 0) } }

    /// One line per kind, in a fixed order: `quantitySample: 1,234 LOINC, 56 HealthKit code,
    /// 7 fallback`; kinds with nothing written are left out.
    public var lines: [String] {
        counts.keys.sorted().map { kind in
            let byCoding = counts[kind] ?? [:]
            let parts = Coding.allCases.compactMap { coding -> String? in
                guard let n = byCoding[coding], n > 0 else { return nil }
                switch coding {
                case .loinc: return "\(n) LOINC"
                case .healthKit: return "\(n) HealthKit code"
                case .fallback: return "\(n) fallback"
                case .clinical: return "\(n) clinical resource"
                }
            }
            return "\(kind): " + parts.joined(separator: ", ")
        }
    }
}
