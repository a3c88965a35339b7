import Foundation

/// The authorization sheet, which the host supplies (HealthKit shows its own; on Linux there is
/// no system sheet).
///
/// `HKHealthStore` calls it only when a request has something to ask (HealthKit's rule: only
/// types never decided), and always for a per-object request. The answers are saved to the
/// policy file atomically, exactly as `healthport auth request` and `auth request-per-object`
/// save them. healthport ships the command line's own sheet as `HKTerminalAuthorizationPresenter`
/// (questions on standard error, answers from standard input); a test scripts one; a server
/// could ask through its client.
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
    /// The consumer's name, as the policy file records it.
    public let consumer: String
    /// Types to read that were never decided, in request order.
    public let read: [HKObjectType]
    /// Types to save that were never decided, in request order.
    public let share: [HKSampleType]
}

/// The person's answers: the types allowed. A type asked and not listed is denied.
public struct HKAuthorizationResponse: Sendable {
    /// The types the person allows the consumer to read.
    public var allowedRead: Set<HKObjectType>
    /// The types the person allows the consumer to save.
    public var allowedShare: Set<HKSampleType>

    /// Answers allowing these types (and denying every other type asked).
    public init(allowedRead: Set<HKObjectType> = [], allowedShare: Set<HKSampleType> = []) {
        self.allowedRead = allowedRead
        self.allowedShare = allowedShare
    }
}

/// What a per-object sheet offers: the consumer and the matching objects (possibly none).
public struct HKPerObjectAuthorizationRequest: Sendable {
    /// The consumer's name, as the policy file records it.
    public let consumer: String
    /// The per-object type (vision prescriptions).
    public let objectType: HKObjectType
    /// The matching samples, in the input's order (the owner's view: all of them).
    public let samples: [HKSample]
}

/// The answers per object: `true` allows reading it, `false` revokes it; an object not
/// answered keeps its earlier decision.
public struct HKPerObjectAuthorizationResponse: Sendable {
    /// Per sample uuid: `true` allows reading it, `false` does not.
    public var decisions: [UUID: Bool]

    /// Answers per sample uuid.
    public init(decisions: [UUID: Bool]) {
        self.decisions = decisions
    }
}
