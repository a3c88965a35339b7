import HealthModel

/// Tallies `TypeCoverage` from the objects a read lets through: per type, the local days and
/// (for heart rate) the local hours that have objects, and the objects.
///
/// Memory grows with days × types (and hours for heart rate), never with objects: four years of
/// a full export is a few tens of thousands of entries. Objects come in runs of one type, so the
/// last type's tally is kept at hand instead of being looked up by name for each object.
public final class CoverageCollector {
    private final class Tally {
        var days = Set<Int>()
        var hours = Set<Int>()
        var samples = 0
        var first = Int.max
        var last = Int.min
    }

    private var tallies: [String: Tally] = [:]
    private var last: (type: String, tally: Tally)? = nil

    public init() {}

    /// Counts one object; objects without a date (elements passed through without one) are not
    /// counted.
    public func add(_ object: HealthObject) {
        let day: Int
        var hour: Int? = nil
        if let start = object.startDate {
            let local = start.secondsSince1970 + Int64(start.utcOffsetSeconds)
            let seconds = local >= 0 ? local : local - 86_399
            day = Int(seconds / 86_400)
            hour = Int((local - Int64(day) * 86_400) / 3600)
        } else if case .activitySummary(let summary) = object, let date = summary.dateComponents {
            day = CalendarDate.daysFromCivil(year: date.year, month: date.month, day: date.day)
        } else {
            return
        }
        let type = object.objectType.identifier
        let tally: Tally
        if let last, last.type == type {
            tally = last.tally
        } else {
            if let known = tallies[type] {
                tally = known
            } else {
                tally = Tally()
                tallies[type] = tally
            }
            last = (type, tally)
        }
        tally.samples += 1
        tally.days.insert(day)
        if day < tally.first { tally.first = day }
        if day > tally.last { tally.last = day }
        if let hour, type == TypeCoverage.wearTimeType { tally.hours.insert(day * 24 + hour) }
    }

    /// One row per type met, by type identifier.
    public func rows() -> [TypeCoverage] {
        tallies.keys.sorted().compactMap { type in
            guard let tally = tallies[type], tally.samples > 0 else { return nil }
            var row = TypeCoverage(
                type: type, firstDay: CalendarDate.civilFromDays(tally.first), lastDay: CalendarDate.civilFromDays(tally.last),
                days: tally.days.count, samples: tally.samples)
            if type == TypeCoverage.wearTimeType {
                row.coveredHours = tally.hours.count
                row.coveredShare = Double(tally.hours.count) / Double(24 * tally.days.count)
            }
            return row
        }
    }
}
