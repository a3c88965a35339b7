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
    public func run(present: (Sheet) throws -> Answers?) throws(RunError) -> AuthorizationPolicy {
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

/// A per-object read request (HealthKit: `requestPerObjectReadAuthorization(for:predicate:)`):
/// the input's objects of a per-object type (vision prescriptions) that match the query are
/// offered one by one on a sheet the caller presents, **always**, even when answered before;
/// the answers are saved to the policy file atomically (`healthport auth request-per-object`,
/// `HealthKitPort`).
public struct PerObjectRequestRun: Sendable {
    public var policyFile: String
    public var input: ObjectInput
    /// The per-object type, and optionally a predicate over it.
    public var type: String
    public var query: ObjectQuery
    /// The policy when the file does not exist yet; `nil` requires the file.
    public var newPolicy: AuthorizationPolicy?
    /// How an export input is read (the parser): the face's options.
    public var reading = ReadOptions()

    public init(policyFile: String, input: ObjectInput, type: String, query: ObjectQuery? = nil, newPolicy: AuthorizationPolicy? = nil) {
        self.policyFile = policyFile
        self.input = input
        self.type = type
        var query = query ?? ObjectQuery()
        query.types = [type]
        self.query = query
        self.newPolicy = newPolicy
    }

    /// What the sheet offers: the consumer and the objects, in the input's order.
    public struct Sheet: Sendable {
        public var consumer: AuthorizationPolicy.Consumer
        public var objects: [HealthObject]

        /// An offer, made by a face that holds it in its own shape (HealthKitPort's
        /// `HKPerObjectAuthorizationRequest`) to show it on a shared sheet
        /// (`TerminalAuthorizationSheet`).
        public init(consumer: AuthorizationPolicy.Consumer, objects: [HealthObject]) {
            self.consumer = consumer
            self.objects = objects
        }
    }

    /// - Parameter present: shows the sheet (also when it offers nothing) and answers per
    ///   object (`true` allows reading it); `nil` means the person cancelled. An object without
    ///   an answer keeps its earlier decision.
    /// - Returns: the policy as saved.
    /// - Throws: `RunError`: `.invalidRequest` for a type that is not per-object
    ///   (`errorInvalidArgument`), `.authorizationCancelled` on a cancel (nothing saved).
    @discardableResult
    public func run(cancellation: RunCancellation? = nil, present: (Sheet) throws -> [ObjectUUID: Bool]?) throws(RunError) -> AuthorizationPolicy {
        // One implementation (`PerObjectAuthorizationRequest`, as `auth request-per-object` and
        // `healthport mcp`); an object without an answer keeps the state its switch showed.
        var request = PerObjectAuthorizationRequest(
            policyFile: policyFile, input: input, type: type, query: query,
            consumer: FileManager.default.fileExists(atPath: policyFile) ? nil : newPolicy?.consumer.name)
        request.reading = reading
        let pending = try request.prepare(cancellation: cancellation)
        let answers = try RunError.wrapping { try present(Sheet(consumer: pending.policy.consumer, objects: pending.offered)) }
        guard let answers else { throw AuthorizationRequest.Pending.cancelled }
        var complete: [ObjectUUID: Bool] = [:]
        for object in pending.offered { complete[object.uuid] = answers[object.uuid] ?? pending.isGranted(object) }
        return try pending.record(complete)
    }
}
