import Foundation
import HealthModel

/// Where a summary cuts days when the person names no zone, and why: the samples' most
/// frequent `HKTimeZone` (where the person lived), else the zone whose clock a Health Connect
/// export's records' own offsets keep (`RecordClockZone`), else the export's UTC offset (which
/// knows no summer time), else UTC.
///
/// One rule for every summary: `healthport summary`, `sleep` and `convert --summaries` decide
/// it after each read; the store decides it once, at its first summary, and keeps it, so that
/// every later import cuts days where the first did.
///
/// For example:
/// ```swift
/// let decided = SummaryTimeZone.decide(collector, exportOffset: header.exportDate?.utcOffsetSeconds)
/// if case .exportOffset = decided { warn("days are cut at the export's UTC offset") }
/// try collector.finish(timeZone: decided.timeZone, daily: { … }, night: { … })
/// ```
public enum SummaryTimeZone: Sendable, Equatable {
    /// The samples' most frequent `HKTimeZone`, or the zone their own offsets keep.
    case samples(TimeZone)
    /// No sample named a zone: the export's UTC offset, in seconds.
    case exportOffset(Int32)
    /// Neither: UTC.
    case utc

    /// The zone days are cut in.
    public var timeZone: TimeZone {
        switch self {
        case .samples(let zone): return zone
        case .exportOffset(let seconds): return TimeZone(secondsFromGMT: Int(seconds)) ?? TimeZone(secondsFromGMT: 0)!
        case .utc: return TimeZone(secondsFromGMT: 0)!
        }
    }

    /// Decides from what a collector has read and the export's UTC offset (its export date's).
    public static func decide(_ collector: SummaryCollector, exportOffset: Int32?) -> SummaryTimeZone {
        if let zone = collector.mostFrequentTimeZone { return .samples(zone) }
        if let exportOffset, TimeZone(secondsFromGMT: Int(exportOffset)) != nil { return .exportOffset(exportOffset) }
        return .utc
    }
}
