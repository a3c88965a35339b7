import Foundation
import HealthModel
import HealthQuery

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
    public func run(
        reporter: RunReporter = .silent, cancellation: RunCancellation? = nil, present: (Sheet) throws -> [ObjectUUID: Bool]?
    ) throws(RunError) -> AuthorizationPolicy {
        // One implementation (`PerObjectAuthorizationRequest`, as `auth request-per-object` and
        // `healthport mcp`); an object without an answer keeps the state its switch showed.
        var request = PerObjectAuthorizationRequest(
            policyFile: policyFile, input: input, type: type, query: query,
            consumer: FileManager.default.fileExists(atPath: policyFile) ? nil : newPolicy?.consumer.name)
        request.reading = reading
        let pending = try request.prepare(reporter: reporter, cancellation: cancellation)
        let answers = try RunError.wrapping { try present(Sheet(consumer: pending.policy.consumer, objects: pending.offered)) }
        guard let answers else { throw AuthorizationRequest.Pending.cancelled }
        var complete: [ObjectUUID: Bool] = [:]
        for object in pending.offered { complete[object.uuid] = answers[object.uuid] ?? pending.isGranted(object) }
        return try pending.record(complete)
    }
}
