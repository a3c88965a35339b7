import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import MCP

/// `request_authorization`: HealthKit's `requestAuthorization(toShare:read:)`. The undecided
/// types are put to the person as one form (MCP elicitation), a switch per type, off by
/// default; the answers are written to the policy by the same library code as `healthport auth
/// request` (`AuthorizationRequest`), atomically. Decline denies every type asked (the sheet's
/// "Don't Allow"); cancel is `errorUserCanceled` and writes nothing. Success means the request
/// completed, never what was allowed.
enum RequestAuthorizationTool {
    static let definition = Tool(
        name: "request_authorization",
        description: """
            Ask the person for permission to read (and share) health data types. The person answers on a form your \
            client shows; only types never decided are asked, and a request for decided types asks nothing. Success means \
            the person answered, not that anything was allowed: as in HealthKit, a type you may not read just looks empty. \
            Fails with errorUserCanceled when the person cancels.
            """,
        inputSchema: Schema.object([
            "read": Schema.strings("Types to read: StepCount, HeartRate, RestingHeartRate, Workout, SleepAnalysis, …"),
            "share": Schema.strings("Types to share (save)."),
        ]),
        annotations: .init(title: "Ask the person for access", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false))

    static func answer(
        _ arguments: ToolArguments, configuration: AssistantConfiguration, consumer: String, person: PersonAsking
    ) async throws -> JSONText {
        let read = try arguments.types("read") ?? []
        let share = try arguments.types("share") ?? []
        guard !(read.isEmpty && share.isEmpty) else { throw ToolFailure.argument("read", "or 'share' must name at least one type") }
        let request = AuthorizationRequest(policyFile: configuration.policyFile, share: share, read: read, consumer: consumer)
        let pending = try engine { try request.prepare() }
        // Nothing undecided: no form, and nothing written (only the person's answers write).
        guard pending.asksAnything else { return success }
        let terminal = terminalCommand(configuration, pending)
        guard person.canAsk else { throw PersonAsking.cannotAsk(terminal) }
        var taken = Set<String>()
        var properties: [String: Value] = [:]
        var readKeys: [(String, String)] = []
        var shareKeys: [(String, String)] = []
        for type in pending.readQuestions {
            let name = TypeCatalogue.shortName(of: type)
            let key = PersonAsking.fieldKey("read", name, taken: &taken)
            readKeys.append((key, type))
            properties[key] = [
                "type": "boolean", "title": .string("Read \(name)"), "default": false,
                "description": .string("Allow “\(pending.consumerName)” to read your \(name) data."),
            ]
        }
        for type in pending.shareQuestions {
            let name = TypeCatalogue.shortName(of: type)
            let key = PersonAsking.fieldKey("share", name, taken: &taken)
            shareKeys.append((key, type))
            properties[key] = [
                "type": "boolean", "title": .string("Save \(name)"), "default": false,
                "description": .string("Allow “\(pending.consumerName)” to save \(name) data."),
            ]
        }
        let message = """
            “\(pending.consumerName)” would like to access your health data. Switch on what it may read or save; \
            what stays off is denied, and a denied read stays hidden (it sees no data). Decline denies all; cancel \
            decides nothing.
            """
        let schema = Elicitation.RequestSchema(
            title: "Health data access", description: "healthport: \(pending.consumerName)", properties: properties, required: nil)
        let result = try await person.answer(message, schema, alternative: terminal)
        switch result.action {
        case .accept:
            let content = result.content ?? [:]
            try engine {
                try pending.record(
                    read: Dictionary(uniqueKeysWithValues: readKeys.map { ($0.1, PersonAsking.isOn(content[$0.0])) }),
                    share: Dictionary(uniqueKeysWithValues: shareKeys.map { ($0.1, PersonAsking.isOn(content[$0.0])) }))
            }
        case .decline:
            try engine { try pending.recordAll(allow: false) }
        case .cancel:
            throw PersonAsking.cancelled
        }
        return success
    }

    /// HealthKit's answer: the request completed. Nothing about what was asked or allowed.
    static let success = JSONText.object([("success", .bool(true))])

    /// The command a person runs to decide the same types on a terminal.
    static func terminalCommand(_ configuration: AssistantConfiguration, _ pending: AuthorizationRequest.Pending) -> String {
        var command = "healthport auth request --policy \(shellQuoted(configuration.policyFile))"
        if !pending.readQuestions.isEmpty { command += " --read " + pending.readQuestions.map(TypeCatalogue.shortName).joined(separator: ",") }
        if !pending.shareQuestions.isEmpty { command += " --share " + pending.shareQuestions.map(TypeCatalogue.shortName).joined(separator: ",") }
        if !FileManager.default.fileExists(atPath: configuration.policyFile) { command += " --consumer \(shellQuoted(pending.consumerName))" }
        return command
    }
}

func shellQuoted(_ text: String) -> String {
    if text.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) }) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
