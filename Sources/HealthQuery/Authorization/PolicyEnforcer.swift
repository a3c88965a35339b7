import Foundation
import HealthModel

/// Applies an `AuthorizationPolicy` to what a read returns, with HealthKit's meaning. Every
/// object passes here (through `QueryGate`, by way of `QueryExecutor`) before any writer sees
/// it.
///
/// - A type granted for reading: all its objects (from `readSince` on, with strict start-date
///   semantics, plus the consumer's own).
/// - A type denied: only the consumer's own objects — exactly as if nothing else existed.
/// - A type never decided: nothing.
/// - A per-object type: the granted uuids, plus the consumer's own objects unless revoked.
/// - Correlations: visible when a member type is readable, with only readable members.
/// - Workouts: their routes only when workout routes are readable, and their statistics (and
///   their activities' statistics) only for quantity types the consumer may read: a statistic
///   of heart rates is heart-rate data, and HealthKit computes a workout's statistics from the
///   samples the app may read.
/// - Characteristics: only those granted for reading; the others look unset.
package struct PolicyEnforcer: Sendable {
    package let policy: AuthorizationPolicy
    private let own: Set<String>
    private let since: [String: Double]
    private let grantedUUIDs: [String: Set<ObjectUUID>]
    private let revokedUUIDs: [String: Set<ObjectUUID>]

    package init(_ policy: AuthorizationPolicy) {
        self.policy = policy
        own = policy.normalizedOwnSources
        let utc = TimeZone(identifier: "UTC")!
        since = policy.readSince.compactMapValues { PredicateValue.parseDate($0, timeZone: utc) }
        grantedUUIDs = policy.perObject.mapValues { Set($0.granted.compactMap(ObjectUUID.init(uuidString:))) }
        revokedUUIDs = policy.perObject.mapValues { Set($0.revokedOwn.compactMap(ObjectUUID.init(uuidString:))) }
    }

    /// The types worth reading at all: the reader skips the rest without building them.
    package var readableTypes: Set<String> {
        var types = Set(policy.read.filter { $0.value == .granted || !own.isEmpty }.keys)
        types.formUnion(AuthorizationPolicy.perObjectTypes)
        types.formUnion(["HKCorrelationTypeIdentifierBloodPressure", "HKCorrelationTypeIdentifierFood"])
        return types
    }

    private func isOwn(_ sourceName: String?) -> Bool {
        guard let sourceName, !own.isEmpty else { return false }
        return own.contains(SourceName.normalizedQuickly(sourceName))
    }

    private func sourceName(of object: HealthObject) -> String? {
        if case .clinicalRecord(let record) = object { return record.sourceName }
        return object.sampleAttributes?.sourceRevision.source.name
    }

    /// Whether a type's objects from this source, starting then, may be read.
    func mayRead(type: String, sourceName: String?, start: ExportTimestamp?) -> Bool {
        switch policy.read[type] {
        case .granted?:
            if let since = since[type], let start, Double(start.secondsSince1970) < since { return isOwn(sourceName) }
            return true
        case .denied?:
            return isOwn(sourceName)
        case nil:
            return false
        }
    }

    package func admits(_ object: HealthObject) -> Bool {
        let type = object.objectType.identifier
        if AuthorizationPolicy.perObjectTypes.contains(type) {
            if grantedUUIDs[type]?.contains(object.uuid) == true { return true }
            return isOwn(sourceName(of: object)) && revokedUUIDs[type]?.contains(object.uuid) != true
        }
        if case .correlation(let correlation) = object {
            return correlation.objects.contains { member in
                mayRead(type: member.sample.sampleType.identifier, sourceName: member.sample.sourceRevision.source.name,
                        start: member.sample.startDate)
            }
        }
        return mayRead(type: type, sourceName: sourceName(of: object), start: object.startDate)
    }

    /// Removes the parts of an admitted object the policy does not let through.
    package func redact(_ object: HealthObject) -> HealthObject {
        switch object {
        case .correlation(var correlation):
            correlation.objects = correlation.objects.filter { member in
                mayRead(type: member.sample.sampleType.identifier, sourceName: member.sample.sourceRevision.source.name,
                        start: member.sample.startDate)
            }
            return .correlation(correlation)
        case .workout(var workout):
            workout.routes = workout.routes.filter { route in
                mayRead(type: ObjectType.workoutRoute.identifier, sourceName: route.sample.sourceRevision.source.name,
                        start: route.sample.startDate)
            }
            workout.statistics = workout.statistics.filter(mayReadStatistics)
            for index in workout.workoutActivities.indices {
                workout.workoutActivities[index].statistics = workout.workoutActivities[index].statistics.filter(mayReadStatistics)
            }
            return .workout(workout)
        default:
            return object
        }
    }

    /// Whether a workout's statistic may be shown: its quantity type granted (from `readSince`
    /// on). A statistic has no source of its own, so a denied type's own-source exception
    /// cannot apply: it summarizes samples of every source.
    private func mayReadStatistics(_ statistics: WorkoutStatistics) -> Bool {
        mayRead(type: statistics.quantityType.identifier, sourceName: nil, start: statistics.startDate)
    }

    /// Whether a characteristic is granted for reading (characteristics have no source, dates
    /// or objects: the read decision alone).
    package func mayReadCharacteristic(_ identifier: String) -> Bool {
        policy.read[identifier] == .granted
    }

    /// A query that names a type never decided fails, as HealthKit does for types never requested.
    package func validate(requestedTypes: Set<String>?) throws {
        guard let requestedTypes else { return }
        for type in requestedTypes.sorted() where policy.read[type] == nil && !AuthorizationPolicy.perObjectTypes.contains(type)
            && !AuthorizationPolicy.isCorrelation(type)
        {
            throw AuthorizationError(
                .errorAuthorizationNotDetermined, "\(policy.consumer.name) has not requested authorization to read \(type)",
                argument: .types)
        }
    }
}

extension SourceName {
    /// `normalized(_:)`, without Foundation where it would change nothing: ASCII text is already
    /// NFC and holds none of the characters replaced, so it is only lowered (by the same
    /// `lowercased()`); other text skips the replacements when it holds none of them. Equal to `normalized(_:)` for every
    /// string, and far faster on the common ones: 10,500 ASCII sources of a kilobyte took about
    /// 3 s through `replacingOccurrences`, for every query over the policy.
    static func normalizedQuickly(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name.lowercased() }
        let composed = name.precomposedStringWithCanonicalMapping
        for scalar in composed.unicodeScalars {
            switch scalar.value {
            case 0x2019, 0x2018, 0x00A0, 0x202F: return normalized(name)
            default: continue
            }
        }
        return composed.lowercased()
    }
}
