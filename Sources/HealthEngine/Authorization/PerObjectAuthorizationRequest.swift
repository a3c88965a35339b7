import Foundation
import HealthModel
import HealthQuery

/// A per-object read request (HealthKit: `requestPerObjectReadAuthorization(for:predicate:)`):
/// the objects of a per-object type (vision prescriptions) are offered one by one, every time
/// (HealthKit always asks, even when asked before), and each answer grants or revokes that
/// object. Two steps, like `AuthorizationRequest`, so that a terminal (`healthport auth
/// request-per-object`) and an assistant's client (`healthport mcp`) ask their own way while
/// this code decides what is offered and writes the policy.
public struct PerObjectAuthorizationRequest: Sendable {
    public var policyFile: String
    /// Where the offered objects are read, by their owner (no policy applies to the offer).
    public var input: ObjectInput
    /// A per-object type's identifier.
    public var type: String
    /// Offer only the objects this query admits (its types are `type`): a predicate, a date
    /// window (HealthKit's `predicate` argument).
    public var query: ObjectQuery
    /// The consumer's name, needed when the policy file does not exist yet.
    public var consumer: String?
    /// How an export input is read (the parser): the face's options.
    public var reading = ReadOptions()

    public init(policyFile: String, input: ObjectInput, type: String, predicate: QueryPredicate? = nil, consumer: String? = nil) {
        var query = ObjectQuery(types: [type])
        query.predicate = predicate
        self.init(policyFile: policyFile, input: input, type: type, query: query, consumer: consumer)
    }

    public init(policyFile: String, input: ObjectInput, type: String, query: ObjectQuery, consumer: String? = nil) {
        self.policyFile = policyFile
        self.input = input
        self.type = type
        var query = query
        query.types = [type]
        self.query = query
        self.consumer = consumer
    }

    /// The objects to offer and the policy their answers go into.
    public struct Pending: Sendable {
        public let policyFile: String
        public let policy: AuthorizationPolicy
        public let type: String
        /// In the order the input holds them, at most `PerObjectOfferRun.offerLimit`.
        public let offered: [HealthObject]

        public var consumerName: String { policy.consumer.name }

        /// Whether an object is readable now (granted, or the consumer's own and not revoked):
        /// what a sheet's switch shows before the person touches it.
        public func isGranted(_ object: HealthObject) -> Bool {
            let grants = policy.perObject[type] ?? AuthorizationPolicy.PerObjectGrants()
            let uuid = object.uuid.uuidString
            if grants.granted.contains(uuid) { return true }
            if grants.revokedOwn.contains(uuid) { return false }
            guard !policy.ownSources.isEmpty, let name = object.sampleAttributes?.sourceRevision.source.name else { return false }
            return policy.isOwnSource(name)
        }

        /// Records an answer per offered object (an object without one is denied) and writes
        /// the policy atomically, into the file as it is now, serialized with every other writer
        /// of the file (`AuthorizationPolicy.update`).
        @discardableResult
        public func record(_ answers: [ObjectUUID: Bool]) throws(RunError) -> AuthorizationPolicy {
            try RunError.wrapping {
                try AuthorizationPolicy.update(file: policyFile, startingFrom: policy) { current in
                    var grants = current.perObject[type] ?? AuthorizationPolicy.PerObjectGrants()
                    for object in offered {
                        let uuid = object.uuid.uuidString
                        grants.granted.removeAll { $0 == uuid }
                        grants.revokedOwn.removeAll { $0 == uuid }
                        if answers[object.uuid] == true { grants.granted.append(uuid) } else { grants.revokedOwn.append(uuid) }
                    }
                    grants.granted.sort()
                    grants.revokedOwn.sort()
                    current.perObject[type] = grants
                }
            }
        }

        /// The same answer for every offered object (`--grant`, `--deny`, a declined form).
        @discardableResult
        public func recordAll(allow: Bool) throws(RunError) -> AuthorizationPolicy {
            try record(Dictionary(offered.map { ($0.uuid, allow) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// Checks the type, loads the policy and reads the objects to offer.
    ///
    /// - Throws: `RunError` (`invalidRequest` for a type not authorized object by object;
    ///   `invalidConfiguration` for an invalid policy file).
    /// - Parameter reporter: the export reader's warnings (the store reports none).
    public func prepare(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Pending {
        try RunError.wrapping {
            guard AuthorizationPolicy.perObjectTypes.contains(type) else {
                throw AuthorizationError(.errorInvalidArgument, "\(type) is not authorized object by object", argument: .perObjectType)
            }
            let policy: AuthorizationPolicy
            if let consumer, !FileManager.default.fileExists(atPath: policyFile) {
                policy = AuthorizationPolicy(consumer: AuthorizationPolicy.Consumer(name: consumer))
            } else {
                policy = try AuthorizationPolicy.load(from: policyFile)
            }
            var offer = PerObjectOfferRun(input: input, query: query)
            offer.reading = reading
            let offered = try offer.run(reporter: reporter, cancellation: cancellation)
            return Pending(policyFile: policyFile, policy: policy, type: type, offered: offered)
        }
    }

    /// One offered object as a person recognizes it on the sheet: its kind and dates, never
    /// its measurements.
    public static func describe(_ object: HealthObject) -> String {
        guard case .visionPrescription(let v) = object else { return object.uuid.uuidString }
        var parts = [v.prescriptionType ?? "prescription"]
        if let issued = v.dateIssued { parts.append("issued \(issued.iso8601.prefix(10))") }
        if let expires = v.expirationDate { parts.append("expires \(expires.iso8601.prefix(10))") }
        if let brand = v.brand { parts.append(brand) }
        return parts.joined(separator: ", ") + " (\(v.uuid.uuidString))"
    }
}
