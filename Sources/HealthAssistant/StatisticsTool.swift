import Foundation
import HealthEngine
import HealthModel
import HealthOutput
import HealthQuery
import MCP

/// `statistics`: statistics of one quantity or category type per calendar interval, sources merged as the
/// Health app merges them (HealthKit: `HKStatisticsCollectionQuery`; `healthport stats`),
/// through the policy, rows paged like samples.
enum StatisticsTool: ReadingTool {
    static let definition = Tool(
        name: "statistics",
        description: """
            Statistics of one quantity or category type (StepCount, HeartRate, RestingHeartRate, BodyMass, MindfulSession, \
            SleepAnalysis, …) per calendar interval: sums for cumulative types, average/min/max for discrete ones, time \
            (seconds) and count for category types, sources merged as the Health app merges them \
            (an Apple Watch and an iPhone counting the same steps are not added twice). Rows come in pages \
            (nextCursor). A type you may not read gives no rows, as a type without data. Sleep per night: sleep_nights.
            """,
        inputSchema: Schema.object(
            [
                "type": Schema.string("One quantity or category type: StepCount, HeartRate, RestingHeartRate, BodyMass, MindfulSession, …"),
                "predicate": Schema.predicate, "start": Schema.start, "end": Schema.end, "timeZone": Schema.string(
                    "The time zone that cuts days (default: the samples' own HKTimeZone, else the export's UTC offset), e.g. Europe/Paris."),
                "sources": Schema.sources, "unit": Schema.unit,
                "interval": Schema.choice("The interval (default day).", CalendarIntervals.Unit.allCases.map(\.rawValue)),
                "intervalCount": Schema.integer("Intervals of this many units (default 1).", minimum: 1, maximum: 10_000),
                "anchorDate": Schema.string("A date intervals align with (default midnight, 3 January 2000 for weeks, a Monday)."),
                "options": Schema.strings("cumulativeSum, discreteAverage, discreteMin, discreteMax, mostRecent, duration, count (default: the type's)."),
                "separateBySource": Schema.boolean("Also give each source's own statistics."),
                "sourcePriority": Schema.strings("Source names, highest priority first (default: manual entries, Apple Watch, iPhone, others)."),
                "pageSize": Schema.integer("Rows per page (default 100).", minimum: 1, maximum: AssistantConfiguration.maximumPageSize),
                "cursor": Schema.cursor,
            ], required: ["type"]),
        annotations: .init(title: "Health statistics", readOnlyHint: true, openWorldHint: false))

    /// This tool names its one type `type`.
    static let names = ToolArgumentNames(types: "type")

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        guard let typeName = try arguments.string("type") else {
            throw ToolFailure.argument("type", "is required: one quantity or category type (StepCount, HeartRate, MindfulSession, …)")
        }
        let types = try engine(naming: Self.names) { try TypeNameResolver.resolve([typeName]) }
        var query = try arguments.objectQuery(typesRequired: false)
        query.types = types
        var run = StatisticsRun(input: context.configuration.input, query: context.gated(query))
        run.reading = context.configuration.reading
        if let text = try arguments.string("interval") {
            guard let unit = CalendarIntervals.Unit(rawValue: text) else {
                throw ToolFailure.argument("interval", "must be one of " + CalendarIntervals.Unit.allCases.map(\.rawValue).joined(separator: ", "))
            }
            run.interval = unit
        }
        run.intervalCount = try arguments.int("intervalCount", in: 1...10_000) ?? 1
        run.anchorDate = try arguments.string("anchorDate")
        run.timeZone = try arguments.timeZone("timeZone")
        if let options = try arguments.strings("options"), !options.isEmpty {
            run.options = try engine { try StatisticsOptions(parsing: options.joined(separator: ",")) }
        }
        run.separateBySource = try arguments.bool("separateBySource") ?? false
        run.sourcePriority = try arguments.strings("sourcePriority") ?? []
        let pageSize = try arguments.int("pageSize", in: 1...AssistantConfiguration.maximumPageSize) ?? context.configuration.defaultPageSize
        let cursor = try PageCursor.read(arguments)
        let result = try engine(naming: Self.names) { try run.run(cancellation: context.cancellation) }
        var table = result.table
        // Rows of one interval (with its sources' rows) stay on one page.
        let groups = table.rows.reduce(into: [[StatisticsTable.Row]]()) { groups, row in
            if row.source == nil || groups.isEmpty { groups.append([row]) } else { groups[groups.count - 1].append(row) }
        }
        let page = Array(groups.dropFirst(cursor.skip).prefix(pageSize))
        table.rows = page.flatMap { $0 }
        var members: [(String, JSONText)] = [
            ("unit", .string(result.unit)),
            ("timeZone", .string(result.timeZone.identifier)),
            ("columns", .strings(table.columns)),
            ("intervals", .rawBytes(StatisticsWriter.bytes(table, format: .json))),
        ]
        if cursor.skip + page.count < groups.count { members.append(("nextCursor", .string(cursor.next(after: page.count).text))) }
        return .object(members)
    }
}
