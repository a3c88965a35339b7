import HealthEngine
import HealthQuery
import MCP

/// `changes`: what changed in the store since an anchor (HealthKit: `HKAnchoredObjectQuery`),
/// in batches, through the policy. The anchor is opaque (a token, `StoreAnchor`): the last
/// change this consumer saw, so an import of types it may not read leaves the answer, anchor
/// included, as it was, and nothing about them can be read from it.
enum ChangesTool: ReadingTool {
    static let definition = Tool(
        name: "changes",
        description: """
            What was added to or deleted from the store since an anchor (HealthKit's anchored object query). Pass \
            nothing (or 0) the first time, then the newAnchor of the previous answer, an opaque token. At most limit \
            changes per call: when complete is false, call again with newAnchor for the rest.
            """,
        inputSchema: Schema.object([
            "types": Schema.types, "predicate": Schema.predicate, "timeZone": Schema.timeZone,
            "anchor": Schema.string("The newAnchor of the previous answer (an opaque token); nothing or \"0\" for everything."),
            "limit": Schema.integer("At most this many changes in this batch (default 100).", minimum: 1, maximum: AssistantConfiguration.maximumPageSize),
        ]),
        annotations: .init(title: "Changes since an anchor", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        let query = context.gated(try arguments.objectQuery(typesRequired: false))
        // 0 as a number is the origin, as HealthKit's HKAnchoredObjectQueryNoAnchor; any
        // other anchor is a token the store made.
        let anchor: String?
        if (try? arguments.int("anchor", in: 0...0)) != nil {
            anchor = nil
        } else {
            anchor = try arguments.string("anchor")
        }
        let limit = try arguments.int("limit", in: 1...AssistantConfiguration.maximumPageSize) ?? context.configuration.defaultPageSize
        guard let store = context.configuration.store else {
            throw ToolFailure("changes reads the store: the person can import the export (healthport import) and serve the store")
        }
        let run = ChangesRun(input: .store(store), query: query, anchor: anchor.map(ChangesAnchor.store), limit: limit)
        let batch = try engine { try run.encodedChanges(cancellation: context.cancellation) }
        return .object([
            ("added", .array(batch.added.map(JSONText.rawBytes))),
            ("deleted", .array(batch.deleted.map { .object([("uuid", .string($0.uuid)), ("type", .string($0.type))]) })),
            ("newAnchor", .string(batch.newAnchor.storeToken ?? "")),
            ("complete", .bool(batch.complete)),
        ])
    }
}
