import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import MCP

/// `request_per_object_authorization`: HealthKit's
/// `requestPerObjectReadAuthorization(for:predicate:)`. Every object of a per-object type
/// (vision prescriptions) in the store, or those matching a predicate, is put to the person
/// on one form, a switch each, showing what is readable now; it always asks, even when asked
/// before. The answers are written by the same library code as `healthport auth
/// request-per-object` (`PerObjectAuthorizationRequest`), atomically. Decline denies every
/// object offered; cancel is `errorUserCanceled` and writes nothing.
enum RequestPerObjectAuthorizationTool {
    static let definition = Tool(
        name: "request_per_object_authorization",
        description: """
            Ask the person which objects of a per-object type (vision prescriptions) you may read, one by one, on a form \
            your client shows. It always asks, even when asked before. Success means the person answered, not what was \
            allowed. Fails with errorUserCanceled when the person cancels.
            """,
        inputSchema: Schema.object([
            "type": Schema.string("The per-object type (default VisionPrescription)."),
            "predicate": Schema.string("Offer only the objects matching this predicate (healthport-predicates(7))."),
        ]),
        annotations: .init(title: "Ask the person for prescriptions", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false))

    static func answer(
        _ arguments: ToolArguments, configuration: AssistantConfiguration, consumer: String, person: PersonAsking,
        cancellation: RunCancellation
    ) async throws -> JSONText {
        let typeName = try arguments.string("type") ?? "VisionPrescription"
        let types = try engine(naming: ToolArgumentNames(types: "type")) { try TypeNameResolver.resolve([typeName]) }
        guard types.count == 1, let type = types.first else { throw ToolFailure.argument("type", "must name one per-object type") }
        let predicate = try arguments.string("predicate").map { text in
            try engine {
                do {
                    return try PredicateParser.parse(text, timeZone: TimeZone(identifier: "UTC")!)
                } catch var error as QueryPredicateError {
                    error.source = text
                    throw error
                }
            }
        }
        var terminal = "healthport auth request-per-object --policy \(shellQuoted(configuration.policyFile)) --type \(TypeCatalogue.shortName(of: type)) EXPORT"
        if let text = try arguments.string("predicate") { terminal += " --where \(shellQuoted(text))" }
        // Checked before the store is read: whether there is anything to offer is the person's
        // to tell, not the client's capabilities'.
        guard person.canAsk else { throw PersonAsking.cannotAsk(terminal) }
        var request = PerObjectAuthorizationRequest(
            policyFile: configuration.policyFile, input: configuration.input, type: type, predicate: predicate, consumer: consumer)
        request.reading = configuration.reading
        let prepared = request
        let pending = try await offThread { try engine { try prepared.prepare(cancellation: cancellation) } }
        var taken = Set<String>()
        var properties: [String: Value] = [:]
        var keys: [(String, HealthObject)] = []
        for (index, object) in pending.offered.enumerated() {
            let key = PersonAsking.fieldKey("object", String(index + 1), taken: &taken)
            keys.append((key, object))
            properties[key] = [
                "type": "boolean", "title": .string(PerObjectAuthorizationRequest.describe(object)),
                "default": .bool(pending.isGranted(object)),
                "description": .string("Allow “\(pending.consumerName)” to read this one."),
            ]
        }
        let name = TypeCatalogue.shortName(of: type)
        // The form is shown even with nothing to offer (HealthKit always asks), so the
        // assistant cannot tell from the answer, or its timing, whether any exist.
        let message =
            pending.offered.isEmpty
            ? "“\(pending.consumerName)” would like to read your \(name) data. You have none to share now."
            : """
                “\(pending.consumerName)” would like to read your \(name) data. Choose, one by one, which it may read; \
                what stays off is not shared. Decline shares none; cancel changes nothing.
                """
        let schema = Elicitation.RequestSchema(title: "\(name): choose what to share", properties: properties)
        let result = try await person.answer(message, schema, alternative: terminal)
        switch result.action {
        case .accept where pending.offered.isEmpty, .decline where pending.offered.isEmpty:
            // Nothing offered: nothing to write.
            break
        case .accept:
            let content = result.content ?? [:]
            // A field the client left out keeps the switch as it was shown.
            let answers = keys.map { key, object in (object.uuid, content[key].map(PersonAsking.isOn) ?? pending.isGranted(object)) }
            try engine { try pending.record(Dictionary(answers, uniquingKeysWith: { first, _ in first })) }
        case .decline:
            try engine { try pending.recordAll(allow: false) }
        case .cancel:
            throw PersonAsking.cancelled
        }
        return RequestAuthorizationTool.success
    }
}
