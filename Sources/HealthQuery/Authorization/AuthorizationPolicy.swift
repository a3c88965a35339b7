import Foundation
import HealthModel

/// What a consumer (an app, a clinician, a study) may read and share, with HealthKit's model
/// (docs/reference/healthkit.md §6, §7.4). The file format is documented in `healthport-policy(5)`.
///
/// - Each type has two independent decisions: share (save) and read.
/// - A type absent from `read` is *not determined*: never read.
/// - Read *denial* is hidden: the consumer sees only the objects its own sources saved, exactly
///   as if nothing else existed.
/// - Per-object types (vision prescriptions) are read object by object: the granted uuids, plus
///   the consumer's own objects unless revoked.
public struct AuthorizationPolicy: Sendable, Equatable {
    public enum ShareStatus: String, Sendable, Codable, CaseIterable {
        case notDetermined, sharingDenied, sharingAuthorized
    }

    public enum ReadDecision: String, Sendable, Codable {
        case granted, denied
    }

    public struct PerObjectGrants: Sendable, Equatable, Codable {
        public var granted: [String]
        public var revokedOwn: [String]

        public init(granted: [String] = [], revokedOwn: [String] = []) {
            self.granted = granted
            self.revokedOwn = revokedOwn
        }
    }

    public struct Consumer: Sendable, Equatable, Codable {
        public var name: String
        public var bundleIdentifier: String?

        public init(name: String, bundleIdentifier: String? = nil) {
            self.name = name
            self.bundleIdentifier = bundleIdentifier
        }
    }

    public static let formatVersion = 1

    public var consumer: Consumer
    /// Source names that count as the consumer itself (exports carry no bundle identifiers).
    public var ownSources: [String] {
        didSet { ownSourcesCache = NormalizedSources() }
    }
    public var share: [String: ShareStatus]
    public var read: [String: ReadDecision]
    /// Per type, the first instant the consumer may read (limited history).
    public var readSince: [String: String]
    public var perObject: [String: PerObjectGrants]
    /// `normalizedOwnSources`, once asked; shared by the policy's copies until `ownSources`
    /// changes.
    private var ownSourcesCache = NormalizedSources()

    /// `ownSources` normalized (`SourceName.normalized`), the set an object's source is looked up
    /// in. Computed once per policy, not once per query over it: a policy may name ten thousand
    /// sources of a kilobyte each, which took seconds to normalize.
    package var normalizedOwnSources: Set<String> { ownSourcesCache.value(for: ownSources) }

    /// Whether objects of a source by this name are the consumer's own (names compared loosely,
    /// `SourceName`): one lookup in `normalizedOwnSources`.
    public func isOwnSource(_ name: String) -> Bool {
        normalizedOwnSources.contains(SourceName.normalizedQuickly(name))
    }

    public init(consumer: Consumer, ownSources: [String] = []) {
        self.consumer = consumer
        self.ownSources = ownSources
        self.share = [:]
        self.read = [:]
        self.readSince = [:]
        self.perObject = [:]
    }

    // MARK: Type classes (docs/reference/healthkit.md §2.7, §6.7)

    /// Types read object by object. One line per future type.
    public static let perObjectTypes: Set<String> = ["HKVisionPrescriptionTypeIdentifier"]

    /// Types no app may share (save): characteristics, activity summaries, clinical records,
    /// ECGs and the Apple-computed types.
    public static func isReadOnly(_ type: String) -> Bool {
        if type.hasPrefix("HKCharacteristicTypeIdentifier") || type.hasPrefix("HKClinicalTypeIdentifier") { return true }
        return readOnlyTypes.contains(type)
    }

    static let readOnlyTypes: Set<String> = [
        "HKActivitySummaryTypeIdentifier", "HKDataTypeIdentifierElectrocardiogram",
        "HKQuantityTypeIdentifierAtrialFibrillationBurden", "HKQuantityTypeIdentifierAppleWalkingSteadiness",
        "HKQuantityTypeIdentifierAppleSleepingWristTemperature", "HKQuantityTypeIdentifierAppleExerciseTime",
        "HKQuantityTypeIdentifierAppleStandTime", "HKQuantityTypeIdentifierWalkingHeartRateAverage",
        "HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances",
        "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent", "HKCategoryTypeIdentifierHighHeartRateEvent",
        "HKCategoryTypeIdentifierLowHeartRateEvent", "HKCategoryTypeIdentifierIrregularHeartRhythmEvent",
        "HKCategoryTypeIdentifierAudioExposureEvent", "HKCategoryTypeIdentifierInfrequentMenstrualCycles",
        "HKCategoryTypeIdentifierIrregularMenstrualCycles", "HKCategoryTypeIdentifierProlongedMenstrualPeriods",
        "HKCategoryTypeIdentifierPersistentIntermenstrualBleeding", "HKCategoryTypeIdentifierAppleStandHour",
        "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent",
    ]

    static func isCorrelation(_ type: String) -> Bool { type.hasPrefix("HKCorrelationTypeIdentifier") }

    // MARK: Status

    /// HealthKit's `authorizationStatus(for:)`: the share status only, never the read decision.
    /// Types that can never be shared report `sharingDenied`.
    public func shareStatus(for type: String) -> ShareStatus {
        if Self.isReadOnly(type) { return .sharingDenied }
        return share[type] ?? .notDetermined
    }

    /// Whether a request for these types would ask anything (`getRequestStatusForAuthorization`).
    public func shouldRequest(share shareTypes: [String], read readTypes: [String]) -> Bool {
        shareTypes.contains { share[$0] == nil && !Self.isReadOnly($0) } || readTypes.contains { read[$0] == nil }
    }

    /// Checks a request as HealthKit does before showing a sheet.
    ///
    /// - Throws: `AuthorizationError.errorInvalidArgument` for a read-only type in `share`, a
    ///   correlation type, a per-object type in `read`, or workout routes without workouts.
    public static func validateRequest(share: [String], read: [String]) throws {
        for type in share where isReadOnly(type) {
            throw AuthorizationError(.errorInvalidArgument, "authorization to share \(type) is disallowed (read-only type)", argument: .shareTypes)
        }
        for (list, part) in [(share, RequestArgument.shareTypes), (read, .readTypes)] {
            for type in list where isCorrelation(type) {
                throw AuthorizationError(.errorInvalidArgument, "\(type) cannot be authorized; authorize its member types", argument: part)
            }
        }
        for type in read where perObjectTypes.contains(type) {
            throw AuthorizationError(
                .errorInvalidArgument, "\(type) is read object by object: use \(request: .perObjectAuthorization)", argument: .readTypes)
        }
        for (list, direction, part) in [(share, "share", RequestArgument.shareTypes), (read, "read", .readTypes)]
        where list.contains("HKWorkoutRouteTypeIdentifier") && !list.contains("HKWorkoutTypeIdentifier") {
            throw AuthorizationError(
                .errorInvalidArgument,
                "authorization to \(direction) workout routes needs workouts (HKWorkoutTypeIdentifier) in the same request",
                argument: part)
        }
    }
}

/// The normalized own sources of one policy value, computed on first use (`AuthorizationPolicy`
/// replaces the box when its sources change, so the box never holds a stale set).
private final class NormalizedSources: @unchecked Sendable, Equatable {
    private let lock = NSLock()
    private var set: Set<String>? = nil

    func value(for sources: [String]) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let set { return set }
        let computed = Set(sources.map(SourceName.normalizedQuickly))
        set = computed
        return computed
    }

    /// Derived state: two policies are equal when their sources are, whatever was computed.
    static func == (lhs: NormalizedSources, rhs: NormalizedSources) -> Bool { true }
}
