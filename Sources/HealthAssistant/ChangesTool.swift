import HealthEngine
import HealthQuery
import MCP

/// `changes`: what changed in the store since an anchor (HealthKit: `HKAnchoredObjectQuery`),
/// in batches, through the policy. The anchor is a position in the store's change sequence:
/// it moves the same way whether a type is denied or has no data.
enum ChangesTool: ReadingTool {
    static let definition = Tool(
        name: "changes",
        description: """
            What was added to or deleted from the store since an anchor (HealthKit's anchored object query). Pass 0 (or \
            nothing) the first time, then the newAnchor of the previous answer. At most limit changes per call: when \
            complete is false, call again with newAnchor for the rest.
            """,
        inputSchema: Schema.object([
            "types": Schema.types, "predicate": Schema.predicate, "timeZone": Schema.timeZone,
            "anchor": Schema.integer("The newAnchor of the previous answer; 0 or nothing for everything.", minimum: 0, maximum: Int(Int32.max) * 1_000),
            "limit": Schema.integer("At most this many changes in this batch (default 100).", minimum: 1, maximum: AssistantConfiguration.maximumPageSize),
        ]),
        annotations: .init(title: "Changes since an anchor", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        let query = context.gated(try arguments.objectQuery(typesRequired: false))
        let anchor = try arguments.int("anchor", in: 0...(Int(Int32.max) * 1_000)) ?? 0
        let limit = try arguments.int("limit", in: 1...AssistantConfiguration.maximumPageSize) ?? context.configuration.defaultPageSize
        guard let store = context.configuration.store else {
            throw ToolFailure("changes reads the store: the person can import the export (healthport import) and serve the store")
        }
        let run = StoreChangesRun(store: store, query: query, anchor: anchor, limit: limit)
        let batch = try engine { try run.batch(cancellation: context.cancellation) }
        return .object([
            ("added", .array(batch.added.map(JSONText.rawBytes))),
            ("deleted", .array(batch.deleted.map { .object([("uuid", .string($0.uuid)), ("type", .string($0.type))]) })),
            ("newAnchor", .int(batch.newAnchor)),
            ("complete", .bool(batch.complete)),
        ])
    }
}
