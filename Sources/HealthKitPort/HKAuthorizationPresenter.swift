import Foundation

/// The authorization sheet, which the host supplies (HealthKit shows its own; on Linux there is
/// no system sheet).
///
/// `HKHealthStore` calls it only when a request has something to ask (HealthKit's rule: only
/// types never decided), and always for a per-object request. The answers are saved to the
/// policy file atomically, exactly as `healthport auth request` and `auth request-per-object`
/// save them. healthport's command line is one such sheet (on the terminal); a test scripts
/// one; a server could ask through its client.
///
/// Return `nil` for a cancel: the request then fails with `HKError.errorUserCanceled` and the
/// policy file is left as it was.
public protocol HKAuthorizationPresenter: Sendable {
    /// Asks about the undecided types.
    func presentAuthorizationRequest(_ request: HKAuthorizationRequest) async throws -> HKAuthorizationResponse?

    /// Offers the objects of a per-object type (vision prescriptions) one by one.
    func presentPerObjectRequest(_ request: HKPerObjectAuthorizationRequest) async throws -> HKPerObjectAuthorizationResponse?
}

/// What a request sheet asks: the consumer's name and the undecided types, each in request order.
public struct HKAuthorizationRequest: Sendable {
    public let consumer: String
    public let read: [HKObjectType]
    public let share: [HKSampleType]
}

/// The person's answers: the types allowed. A type asked and not listed is denied.
public struct HKAuthorizationResponse: Sendable {
    public var allowedRead: Set<HKObjectType>
    public var allowedShare: Set<HKSampleType>

    public init(allowedRead: Set<HKObjectType> = [], allowedShare: Set<HKSampleType> = []) {
        self.allowedRead = allowedRead
        self.allowedShare = allowedShare
    }
}

/// What a per-object sheet offers: the consumer and the matching objects (possibly none).
public struct HKPerObjectAuthorizationRequest: Sendable {
    public let consumer: String
    public let objectType: HKObjectType
    public let samples: [HKSample]
}

/// The answers per object: `true` allows reading it, `false` revokes it; an object not
/// answered keeps its earlier decision.
public struct HKPerObjectAuthorizationResponse: Sendable {
    public var decisions: [UUID: Bool]

    public init(decisions: [UUID: Bool]) {
        self.decisions = decisions
    }
}
