import Foundation
import HealthModel
import HealthQuery

/// The predicate factories of HealthKit's `HKQuery`, returning `NSPredicate`s that this library
/// maps onto healthport's query (the same meaning `healthport query --start/--end/--where`
/// has).
///
/// On Linux, Foundation has no `NSPredicate(format:)`; these factories are the way to build
/// predicates there. A predicate this library cannot map (a block predicate) makes the query
/// fail with `errorInvalidArgument` rather than be ignored.
public class HKQuery: NSObject, @unchecked Sendable {
    /// Samples in a date interval (HealthKit: `predicateForSamples(withStart:end:options:)`),
    /// with HealthKit's rule: the window is closed at `startDate` and open at `endDate`; with no
    /// options a sample matches when it overlaps the window; `.strictStartDate` /
    /// `.strictEndDate` require its start / end inside. A `nil` bound drops its conditions.
    public class func predicateForSamples(withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = []) -> NSPredicate {
        HKPortPredicate(
            window: DateWindow(
                start: startDate.map { $0.timeIntervalSince1970 }, end: endDate.map { $0.timeIntervalSince1970 },
                strictStartDate: options.contains(.strictStartDate), strictEndDate: options.contains(.strictEndDate)))
    }

    /// The object with this uuid (HealthKit: `predicateForObject(with:)`).
    public class func predicateForObject(with uuid: UUID) -> NSPredicate {
        predicateForObjects(with: [uuid])
    }

    /// The objects with these uuids (HealthKit: `predicateForObjects(with:)`).
    public class func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate {
        HKPortPredicate(uuids: Set(uuids.compactMap { ObjectUUID(uuidString: $0.uuidString) }))
    }
}

/// HealthKit's `HKQueryOptions` for date predicates.
public struct HKQueryOptions: OptionSet, Sendable {
    /// The options' bits (HealthKit's).
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The sample's start must lie in the window.
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    /// The sample's end must lie in the window.
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}

/// A predicate made by `HKQuery`'s factories: healthport's query parts, carried inside an
/// `NSPredicate` so that HealthKit's signatures (`predicate: NSPredicate?`) stay unchanged.
final class HKPortPredicate: NSPredicate {
    let window: DateWindow?
    let uuids: Set<ObjectUUID>

    init(window: DateWindow? = nil, uuids: Set<ObjectUUID> = []) {
        self.window = window
        self.uuids = uuids
        #if canImport(Darwin)
        super.init()
        #else
        super.init(value: true)
        #endif
    }

    required init?(coder: NSCoder) { nil }

    /// HealthKit's printed shape: `endDate >= CAST(…, "NSDate") AND startDate < CAST(…, "NSDate")`
    /// (seconds since 2001), so it can be pasted into `healthport query --where`.
    override var predicateFormat: String {
        var parts: [String] = []
        if let window {
            func cast(_ seconds: Double) -> String { String(format: "CAST(%.6f, \"NSDate\")", seconds - Date.timeIntervalBetween1970AndReferenceDate) }
            if let start = window.start {
                if !window.strictStartDate || window.strictEndDate { parts.append("endDate >= \(cast(start))") }
                if window.strictStartDate { parts.append("startDate >= \(cast(start))") }
            }
            if let end = window.end {
                if !window.strictEndDate || window.strictStartDate { parts.append("startDate < \(cast(end))") }
                if window.strictEndDate { parts.append("endDate < \(cast(end))") }
            }
        }
        if !uuids.isEmpty { parts.append("UUID IN {" + uuids.map { "\"\($0.uuidString)\"" }.sorted().joined(separator: ", ") + "}") }
        return parts.isEmpty ? "TRUEPREDICATE" : parts.joined(separator: " AND ")
    }

    override var description: String { predicateFormat }

    /// Applies this predicate to a query.
    static func apply(_ predicate: NSPredicate?, to query: inout ObjectQuery) throws {
        guard let predicate else { return }
        guard let port = predicate as? HKPortPredicate else {
            throw HKError(.errorInvalidArgument, "only predicates made by HKQuery's factories can be used here (\(type(of: predicate)))")
        }
        if let window = port.window { query.dateWindow = window }
        if !port.uuids.isEmpty { query.uuids = port.uuids }
    }
}
