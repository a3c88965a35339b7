import HealthEngine
import MCP

/// How a request tool reaches the person: MCP elicitation (`elicitation/create`), which the
/// client shows as a form and answers with accept (and the form's values), decline or cancel.
/// The assistant itself cannot answer: the answer comes from the client, to the server.
struct PersonAsking: Sendable {
    /// Whether the client declared the elicitation capability in its `initialize` request.
    let canAsk: Bool
    let ask: @Sendable (_ message: String, _ schema: Elicitation.RequestSchema) async throws -> CreateElicitation.Result

    /// HealthKit's answer when no sheet can be shown: the types stay undecided, and the person
    /// is told where else to decide.
    static func cannotAsk(_ alternative: String) -> ToolFailure {
        ToolFailure(
            "errorAuthorizationNotDetermined (5): this client cannot ask the person (it does not support MCP elicitation), so nothing was decided and the policy is unchanged. The person can decide on a terminal: \(alternative)"
        )
    }

    /// What a failed elicitation (the client answered with an error, or went away) means: no
    /// answer, so nothing is written.
    static func failed(_ error: any Error, _ alternative: String) -> ToolFailure {
        let reason = (error as? MCPError).map { String(describing: $0) } ?? "no answer"
        return ToolFailure(
            "errorAuthorizationNotDetermined (5): the client could not ask the person (\(reason.prefix(200))); nothing was decided and the policy is unchanged. The person can decide on a terminal: \(alternative)"
        )
    }

    /// Shows the form and returns the person's answer; a failed elicitation is `failed`, with
    /// `alternative` (where else the person can decide).
    func answer(_ message: String, _ schema: Elicitation.RequestSchema, alternative: String) async throws -> CreateElicitation.Result {
        do {
            return try await ask(message, schema)
        } catch {
            throw Self.failed(error, alternative)
        }
    }

    /// The person cancelled: HealthKit's `errorUserCanceled`, nothing written.
    static var cancelled: ToolFailure { ToolFailure(AuthorizationRequest.Pending.cancelled) }

    /// A form field's answer: on only when the form says `true`.
    static func isOn(_ value: Value?) -> Bool {
        if let flag = value?.boolValue { return flag }
        if let text = value?.stringValue { return ["true", "yes", "allow"].contains(text.lowercased()) }
        return false
    }

    /// A key for a form field from a type's short name: letters, digits and `_` only, unique.
    static func fieldKey(_ prefix: String, _ name: String, taken: inout Set<String>) -> String {
        let cleaned = String(name.unicodeScalars.filter { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "_" }.map(Character.init))
        var key = prefix + "_" + String(cleaned.prefix(50))
        var suffix = 2
        while taken.contains(key) {
            key = prefix + "_" + String(cleaned.prefix(50)) + "_\(suffix)"
            suffix += 1
        }
        taken.insert(key)
        return key
    }
}
