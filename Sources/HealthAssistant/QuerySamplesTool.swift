import HealthEngine
import HealthQuery
import MCP

/// `query_samples`: a sample query (HealthKit: `HKSampleQueryDescriptor`) through the policy,
/// as healthport's HealthKit-shaped JSON, in pages: a page ends at `pageSize` objects or
/// before its JSON passes the byte cap, and its `nextCursor` reads the next one.
enum QuerySamplesTool: ReadingTool {
    static let definition = Tool(
        name: "query_samples",
        description: """
            Read health samples (quantities, categories, workouts, correlations, …) of the named types, as HealthKit-shaped \
            JSON objects. Filter with a date window and a predicate, sort, and limit. Answers come in pages: when the \
            answer has a nextCursor, call again with the same arguments and that cursor. Types you may not read give no \
            objects, as types without data; a type never requested fails with errorAuthorizationNotDetermined \
            (call request_authorization).
            """,
        inputSchema: Schema.object(
            [
                "types": Schema.types, "predicate": Schema.predicate, "start": Schema.start, "end": Schema.end,
                "strictStartDate": Schema.strictStartDate, "strictEndDate": Schema.strictEndDate, "timeZone": Schema.timeZone,
                "sources": Schema.sources, "unit": Schema.unit,
                "sort": Schema.strings("Sort keys, each ascending or descending: startDate:desc, endDate, quantity, uuid, …"),
                "limit": Schema.integer("At most this many objects in the whole answer (HealthKit's query limit).", minimum: 0, maximum: 100_000_000),
                "pageSize": Schema.integer("Objects per page (default 100).", minimum: 1, maximum: AssistantConfiguration.maximumPageSize),
                "cursor": Schema.cursor,
            ], required: ["types"]),
        annotations: .init(title: "Query health samples", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        let query = context.gated(try arguments.objectQuery(typesRequired: true))
        let sort = try engine { try (try arguments.strings("sort") ?? []).map(ObjectSortDescriptor.init(parsing:)) }
        let limit = try arguments.int("limit", in: 0...100_000_000)
        let pageSize = try arguments.int("pageSize", in: 1...AssistantConfiguration.maximumPageSize) ?? context.configuration.defaultPageSize
        let cursor = try PageCursor.read(arguments)
        var run = SampleQueryRun(input: context.configuration.input, query: query, sortDescriptors: sort, limit: limit)
        run.reading = context.configuration.reading
        let page = try engine {
            try run.page(
                skipping: cursor.skip, count: pageSize, byteLimit: context.configuration.pageByteLimit, cancellation: context.cancellation)
        }
        var members: [(String, JSONText)] = [
            ("count", .int(page.objects.count)),
            ("objects", .array(page.objects.map(JSONText.rawBytes))),
        ]
        if page.hasMore { members.append(("nextCursor", .string(cursor.next(after: page.objects.count).text))) }
        return .object(members)
    }
}
