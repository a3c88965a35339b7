import Foundation
import HealthModel
import HealthQuery

/// A request for authorization (HealthKit: `requestAuthorization(toShare:read:)`): the types
/// not yet decided are put to the person on a sheet the caller presents, and the answers are
/// saved to the policy file atomically (`healthport auth request`, `HealthKitPort`).
///
/// HealthKit's rules: only undecided types are asked; a request for decided types asks nothing
/// and succeeds; success means the request completed, not that anything was allowed; a cancel
/// (`nil` from the sheet) is `errorUserCanceled` and leaves the policy file unchanged.
public struct AuthorizationRequestRun: Sendable {
    /// The policy file; it is created when it does not exist (then `newConsumer` names the
    /// consumer).
    public var policyFile: String
    /// Type identifiers, in the order the sheet asks them.
    public var share: [String]
    public var read: [String]
    /// The consumer, when the policy file is new.
    public var newConsumer: AuthorizationPolicy.Consumer?
    /// Source names that are the consumer itself, added to the policy.
    public var ownSources: [String]

    public init(policyFile: String, share: [String], read: [String], newConsumer: AuthorizationPolicy.Consumer? = nil, ownSources: [String] = []) {
        self.policyFile = policyFile
        self.share = share
        self.read = read
        self.newConsumer = newConsumer
        self.ownSources = ownSources
    }

    /// What the sheet asks: the consumer, and the undecided types in request order.
    public struct Sheet: Sendable, Equatable {
        public var consumer: AuthorizationPolicy.Consumer
        public var read: [String]
        public var share: [String]

        /// A sheet's questions, made by a face that holds them in its own shape (HealthKitPort's
        /// `HKAuthorizationRequest`) to show them on a shared sheet (`TerminalAuthorizationSheet`).
        public init(consumer: AuthorizationPolicy.Consumer, read: [String], share: [String]) {
            self.consumer = consumer
            self.read = read
            self.share = share
        }
    }

    /// The person's answers: `true` allows, `false` denies, per type. A type without an
    /// answer is denied (a sheet's switches start off).
    public struct Answers: Sendable, Equatable {
        public var read: [String: Bool]
        public var share: [String: Bool]

        public init(read: [String: Bool] = [:], share: [String: Bool] = [:]) {
            self.read = read
            self.share = share
        }

        /// The same answer to every question of `sheet`: what `--grant` and `--deny` answer
        /// without showing the sheet.
        public static func all(_ sheet: Sheet, allow: Bool) -> Answers {
            Answers(
                read: Dictionary(sheet.read.map { ($0, allow) }, uniquingKeysWith: { first, _ in first }),
                share: Dictionary(sheet.share.map { ($0, allow) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// Validates the request, asks `present` when a type is undecided (never otherwise), and
    /// saves the policy.
    ///
    /// - Parameter present: shows the sheet; `nil` means the person cancelled.
    /// - Returns: the policy as saved.
    /// - Throws: `RunError`: `.invalidRequest` (HealthKit's `errorInvalidArgument`: a per-object
    ///   or correlation type, a read-only type to share, routes without workouts, no consumer
    ///   for a new file), `.authorizationCancelled` on a cancel, `.invalidConfiguration` for a
    ///   policy file that does not load, or what `present` throws.
    @discardableResult
    ///
    /// Takes the shape of every run; the request reads no data, so `reporter` reports
    /// nothing, and a run cancelled before the sheet is shown saves nothing.
    public func run(
        reporter: RunReporter = .silent, cancellation: RunCancellation? = nil, present: (Sheet) throws -> Answers?
    ) throws(RunError) -> AuthorizationPolicy {
        if cancellation?.isCancelled == true { throw RunError(CancellationError()) }
        // One implementation of the request (`AuthorizationRequest`, which `healthport auth
        // request` and `healthport mcp` use too); this is its synchronous face.
        var request = AuthorizationRequest(
            policyFile: policyFile, share: share, read: read, consumer: newConsumer?.name, bundleIdentifier: newConsumer?.bundleIdentifier)
        request.ownSources = ownSources
        let pending = try request.prepare()
        guard pending.asksAnything else { return try pending.record(read: [:], share: [:]) }
        let answers = try RunError.wrapping {
            try present(Sheet(consumer: pending.policy.consumer, read: pending.readQuestions, share: pending.shareQuestions))
        }
        guard let answers else { throw AuthorizationRequest.Pending.cancelled }
        return try pending.record(read: answers.read, share: answers.share)
    }
}
