import Foundation
import HealthModel
import HealthQuery

/// A request to read and share types (HealthKit: `requestAuthorization(toShare:read:)`), in two
/// steps so that any face can ask the person its own way — a terminal (`healthport auth
/// request`), an assistant's client through MCP elicitation (`healthport mcp`) — while the
/// policy is decided and written by this one piece of code.
///
/// 1. `prepare()` checks the request as HealthKit does and lists the questions: only the types
///    not yet decided are asked.
/// 2. The face asks the person, then calls `Pending.record(read:share:)` with the answers, or
///    throws `Pending.cancelled` (HealthKit's `errorUserCanceled`) and writes nothing.
///
/// The policy file is written atomically (`AtomicFile`): a failed or cancelled request leaves
/// the old policy exactly as it was.
public struct AuthorizationRequest: Sendable {
    public var policyFile: String
    /// Full type identifiers (`TypeNameResolver`), in the order the sheet asks them.
    public var share: [String]
    public var read: [String]
    /// The consumer's name, needed when the policy file does not exist yet.
    public var consumer: String?
    public var bundleIdentifier: String?
    /// Source names that are the consumer itself, added to the policy.
    public var ownSources: [String] = []

    public init(policyFile: String, share: [String], read: [String], consumer: String? = nil, bundleIdentifier: String? = nil) {
        self.policyFile = policyFile
        self.share = share
        self.read = read
        self.consumer = consumer
        self.bundleIdentifier = bundleIdentifier
    }

    /// The questions of a prepared request, and the policy their answers go into.
    public struct Pending: Sendable {
        public let policyFile: String
        /// The policy as it was when the request was prepared (the new one for a new file).
        public let policy: AuthorizationPolicy
        /// The undecided types to ask about reading, then sharing, in the request's order.
        public let readQuestions: [String]
        public let shareQuestions: [String]

        /// Whether the person has anything to decide (HealthKit shows no sheet otherwise).
        public var asksAnything: Bool { !readQuestions.isEmpty || !shareQuestions.isEmpty }

        /// The consumer's name, as the sheet shows it.
        public var consumerName: String { policy.consumer.name }

        /// HealthKit's `errorUserCanceled`: what a face throws when the person cancels.
        public static var cancelled: RunError {
            RunError(AuthorizationError(.errorUserCanceled, "the request was cancelled; the policy is unchanged"))
        }

        /// Records the person's answers and writes the policy atomically. A type without an
        /// answer is denied (a sheet's switches start off). When the file changed on disk
        /// since `prepare()` (another request, a person's edit), the answers go into the file
        /// as it is now, and a type decided meanwhile keeps that decision; concurrent requests
        /// on one file are serialized (`AuthorizationPolicy.update`), so none is lost.
        ///
        /// - Returns: the policy written.
        @discardableResult
        public func record(read readAnswers: [String: Bool], share shareAnswers: [String: Bool]) throws(RunError) -> AuthorizationPolicy {
            try RunError.wrapping {
                try AuthorizationPolicy.update(file: policyFile, startingFrom: policy) { current in
                    for source in policy.ownSources where !current.ownSources.contains(source) { current.ownSources.append(source) }
                    for type in readQuestions where current.read[type] == nil {
                        current.read[type] = readAnswers[type] == true ? .granted : .denied
                    }
                    for type in shareQuestions where current.share[type] == nil {
                        current.share[type] = shareAnswers[type] == true ? .sharingAuthorized : .sharingDenied
                    }
                }
            }
        }

        /// Records the same answer for every question (`--grant`, `--deny`, a declined form).
        @discardableResult
        public func recordAll(allow: Bool) throws(RunError) -> AuthorizationPolicy {
            try record(
                read: Dictionary(uniqueKeysWithValues: readQuestions.map { ($0, allow) }),
                share: Dictionary(uniqueKeysWithValues: shareQuestions.map { ($0, allow) }))
        }
    }

    /// Checks the request and lists what to ask.
    ///
    /// - Throws: `RunError` (`invalidRequest` for a request HealthKit refuses, or a new policy
    ///   file without a consumer name; `invalidConfiguration` for an invalid policy file).
    public func prepare() throws(RunError) -> Pending {
        try RunError.wrapping {
            try AuthorizationPolicy.validateRequest(share: share, read: read)
            var policy: AuthorizationPolicy
            if FileManager.default.fileExists(atPath: policyFile) {
                policy = try AuthorizationPolicy.load(from: policyFile)
            } else {
                guard let consumer else {
                    throw QueryError(
                        .errorInvalidArgument, "\(policyFile) does not exist: name the consumer with \(argument: .consumer, neutral: "a name")",
                        argument: .consumer)
                }
                policy = AuthorizationPolicy(consumer: AuthorizationPolicy.Consumer(name: consumer, bundleIdentifier: bundleIdentifier))
            }
            for source in ownSources where !policy.ownSources.contains(source) { policy.ownSources.append(source) }
            return Pending(
                policyFile: policyFile, policy: policy,
                readQuestions: Self.unique(read).filter { policy.read[$0] == nil },
                shareQuestions: Self.unique(share).filter { policy.share[$0] == nil })
        }
    }

    static func unique(_ types: [String]) -> [String] {
        var seen = Set<String>()
        return types.filter { seen.insert($0).inserted }
    }

    /// HealthKit's `getRequestStatusForAuthorization(toShare:read:)`: whether a request for
    /// these types would ask anything. A missing policy file has decided nothing.
    ///
    /// - Throws: `RunError.invalidConfiguration` for an invalid policy file.
    public static func shouldRequest(policyFile: String, share: [String], read: [String]) throws(RunError) -> Bool {
        try RunError.wrapping {
            guard FileManager.default.fileExists(atPath: policyFile) else { return !(share.isEmpty && read.isEmpty) }
            return try AuthorizationPolicy.load(from: policyFile).shouldRequest(share: share, read: read)
        }
    }

    /// HealthKit's `authorizationStatus(for:)` of each type: the share status only, never the
    /// read decision. A missing policy file has decided nothing (read-only types: denied).
    ///
    /// - Throws: `RunError.invalidConfiguration` for an invalid policy file.
    public static func shareStatus(policyFile: String, types: [String]) throws(RunError) -> [AuthorizationPolicy.ShareStatus] {
        try RunError.wrapping {
            let policy =
                FileManager.default.fileExists(atPath: policyFile)
                ? try AuthorizationPolicy.load(from: policyFile) : AuthorizationPolicy(consumer: .init(name: ""))
            return types.map { policy.shareStatus(for: $0) }
        }
    }
}
