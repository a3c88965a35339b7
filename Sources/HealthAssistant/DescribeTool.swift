import HealthEngine
import HealthModel
import HealthQuery
import MCP

/// `describe`: what the assistant may see of the store — the visible types with their counts
/// and date ranges, the sources and devices that wrote them, and the characteristics granted
/// (`healthport info` under the policy). A type whose reading was denied or never decided is
/// absent, exactly as a type without data.
enum DescribeTool: ReadingTool {
    static let definition = Tool(
        name: "describe",
        description: """
            What the person's health store holds that you may read: each visible type with its count and first and \
            last dates, the sources (apps, devices) and devices that wrote them, and the characteristics you may read. \
            Types you may not read look exactly like types without data. Start here, then use query_samples or statistics.
            """,
        inputSchema: Schema.object(["types": Schema.types]),
        annotations: .init(title: "Describe the health store", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        var query = ObjectQuery()
        if let types = try arguments.types("types") { query.types = Set(types) }
        // The inventory under the policy (`healthport info --policy`): the same parts over an
        // export or the store, nothing of the document itself.
        var run = InventoryRun(input: context.configuration.input, query: context.gated(query))
        run.reading = context.configuration.reading
        let info = try engine { try run.run(cancellation: context.cancellation) }
        return .object([
            ("objectCount", .int(info.document.objectCount)),
            ("types", try JSONText.encoded(info.document.types)),
            ("sources", try JSONText.encoded(info.document.sources)),
            ("devices", try JSONText.encoded(info.document.devices)),
            ("characteristics", .object(info.document.characteristics.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])
    }
}
