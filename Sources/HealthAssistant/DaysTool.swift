import Foundation
import HealthEngine
import HealthModel
import HealthOutput
import HealthQuery
import MCP

/// `days`: the person's days with their measures side by side (`healthport days`): steps,
/// energy, exercise, stand hours, heart rate, HRV, weight, sleep, workouts, and Apple's own rings
/// beside the computed figures; or weeks and months with totals and daily averages. Through the
/// policy, rows paged.
enum DaysTool: ReadingTool {
    static let definition = Tool(
        name: "days",
        description: """
            One row per local day with the day's measures side by side, each named with its unit: steps, distance_km, \
            active_energy_kcal, exercise_min, stand_hours (hours stood), resting_heart_rate_bpm, hrv_sdnn_ms, weight_kg, \
            asleep_min and in_bed_min (the night that ended that morning), naps_min, workouts, and Apple's rings \
            (apple_move_kcal, apple_exercise_min, apple_stand_hours) where the export has them. Sources are merged as the \
            Health app merges them. A column appears only where the data has the type. With period "week" or "month": \
            one row per period with each total's _total and _daily_average, each level's _average, the days covered and \
            whether the period is partial. start and end select whole days. Rows come in pages (nextCursor); a type the \
            policy does not let you read has no column, as without data.
            """,
        inputSchema: Schema.object(
            [
                "start": Schema.start, "end": Schema.end,
                "period": Schema.string("\"week\" (from Mondays) or \"month\": totals and daily averages instead of days."),
                "timeZone": Schema.string(
                    "The time zone days are cut in (default: the person's, from the samples' HKTimeZone), e.g. Europe/Paris."),
                "sources": Schema.sources,
                "pageSize": Schema.integer("Rows per page (default 100).", minimum: 1, maximum: AssistantConfiguration.maximumPageSize),
                "cursor": Schema.cursor,
            ], required: []),
        annotations: .init(title: "Days side by side", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        var query = try arguments.objectQuery(typesRequired: false)
        query.types = nil
        var run = DayTableRun(input: context.configuration.input, query: context.gated(query))
        run.reading = context.configuration.reading
        run.settings.timeZone = try arguments.timeZone("timeZone")
        if let period = try arguments.string("period") {
            guard let parsed = DayPeriods.Period(rawValue: period) else { throw ToolFailure.argument("period", "must be week or month") }
            run.period = parsed
        }
        let pageSize = try arguments.int("pageSize", in: 1...AssistantConfiguration.maximumPageSize) ?? context.configuration.defaultPageSize
        let cursor = try PageCursor.read(arguments)
        let result = try engine { try run.run(cancellation: context.cancellation) }
        let total = run.period == nil ? result.table.rows.count : result.periods.count
        let range = min(cursor.skip, total)..<min(cursor.skip + pageSize, total)
        let rows: [UInt8] =
            run.period == nil
            ? SummaryTableWriter.json(Array(result.table.rows[range]), columns: result.table.columns)
            : SummaryTableWriter.json(Array(result.periods[range]), columns: result.table.columns)
        var members: [(String, JSONText)] = [
            ("timeZone", .string(result.timeZone.identifier)),
            ("columns", .array(result.table.columns.map { .string(DayColumn.all[$0].name) })),
            (run.period == nil ? "days" : "periods", .rawBytes(rows)),
        ]
        if range.upperBound < total { members.append(("nextCursor", .string(cursor.next(after: range.count).text))) }
        return .object(members)
    }
}
