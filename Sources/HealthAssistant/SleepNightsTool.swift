import Foundation
import HealthEngine
import HealthModel
import HealthOutput
import HealthQuery
import MCP

/// `sleep_nights`: sleep per night as the Health app groups it (`healthport sleep`): in bed,
/// asleep, each stage and awake, overlapping sources resolved, through the policy, rows paged.
enum SleepNightsTool: ReadingTool {
    static let definition = Tool(
        name: "sleep_nights",
        description: """
            Sleep per night: time in bed, asleep (core, deep, REM, unspecified), awake, when sleep began and ended, and the \
            sources used. A night runs from the evening (18:00 by default) to the next and is named by its morning; a Watch's \
            stages, an iPhone's time in bed and a sleep app's intervals for the same hours are resolved, never added. \
            Durations are in seconds. Rows come in pages (nextCursor). If sleep may not be read, there are no nights, as \
            without data.
            """,
        inputSchema: Schema.object(
            [
                "start": Schema.start, "end": Schema.end,
                "timeZone": Schema.string(
                    "The time zone nights are cut in (default: the samples' own HKTimeZone, else the export's UTC offset), e.g. Europe/Paris."),
                "sources": Schema.sources,
                "evening": Schema.string("Where one night ends and the next begins, local time HH:MM (default 18:00)."),
                "sourcePriority": Schema.strings("Source names, highest priority first (default: manual entries, Apple Watch, iPhone, others)."),
                "pageSize": Schema.integer("Nights per page (default 100).", minimum: 1, maximum: AssistantConfiguration.maximumPageSize),
                "cursor": Schema.cursor,
            ], required: []),
        annotations: .init(title: "Sleep per night", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        var query = try arguments.objectQuery(typesRequired: false)
        query.types = ["HKCategoryTypeIdentifierSleepAnalysis"]
        var run = SummaryRun(input: context.configuration.input, query: context.gated(query))
        run.reading = context.configuration.reading
        run.settings.timeZone = try arguments.timeZone("timeZone")
        run.settings.sourcePriority = try arguments.strings("sourcePriority") ?? []
        if let evening = try arguments.string("evening") {
            run.settings.evening = try Self.seconds(evening)
        }
        let pageSize = try arguments.int("pageSize", in: 1...AssistantConfiguration.maximumPageSize) ?? context.configuration.defaultPageSize
        let cursor = try PageCursor.read(arguments)
        var nights: [SleepNight] = []
        var total = 0
        let summary = try engine { try run.run(cancellation: context.cancellation, daily: { _ in }, night: { night in
            if total >= cursor.skip && nights.count < pageSize { nights.append(night) }
            total += 1
        }) }
        var members: [(String, JSONText)] = [
            ("timeZone", .string(summary.timeZone.identifier)),
            ("nights", .rawBytes(SummaryTableWriter.json(nights))),
        ]
        if cursor.skip + nights.count < total { members.append(("nextCursor", .string(cursor.next(after: nights.count).text))) }
        return .object(members)
    }

    static func seconds(_ text: String) throws -> Int {
        guard let seconds = SummarySettings.eveningSeconds(parsing: text) else {
            throw ToolFailure.argument("evening", "must be a time of day such as 18:00")
        }
        return seconds
    }
}
