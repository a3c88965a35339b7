import ArgumentParser
import Foundation
import HealthEngine
import HealthOutput
import HealthModel
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport stats`: statistics per calendar interval (HKStatisticsCollectionQuery).
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Statistics of a quantity or category type per calendar interval, sources merged like the Health app.",
            discussion: "See healthport-stats(1) for the merging algorithm.")

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .long, help: ArgumentHelp("The interval: minute, hour, day, week, month or year.", valueName: "unit"))
        var interval: CalendarIntervals.Unit = .day

        @Option(name: .long, help: ArgumentHelp("Intervals of this many units (default 1).", valueName: "n"))
        var intervalCount: Int = 1

        @Option(name: .long, help: ArgumentHelp("A date intervals align with (default: midnight, 3 January 2000, a Monday).", valueName: "date"))
        var anchorDate: String? = nil

        @Option(
            name: .long,
            help: ArgumentHelp(
                "cumulativeSum, discreteAverage, discreteMin, discreteMax, mostRecent, duration, count (category types), separateBySource; repeat or separate with commas.",
                valueName: "list"))
        var options: [String] = []

        @Flag(name: .long, help: "Also compute each source's own statistics.")
        var separateBySource = false

        @OptionGroup var priority: SourcePriorityOption

        @Option(name: .shortAndLong, help: "Output: text (a table with bars, default), csv, json or ndjson.")
        var format: StatisticsWriter.Format = .text

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if intervalCount < 1 { throw ValidationError("--interval-count must be 1 or more") }
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var run = StatisticsRun(input: input.objectInput, query: try filter.makeQuery())
                run.reading = input.parsing.reading
                run.interval = interval
                run.intervalCount = intervalCount
                run.anchorDate = anchorDate
                run.timeZone = try filter.tz.map(TimeZoneNameResolver.resolve)
                // Repeated --options add up, as repeated --type does.
                run.options = options.isEmpty ? nil : try StatisticsOptions(parsing: options.joined(separator: ","))
                run.separateBySource = separateBySource
                run.sourcePriority = priority.names
                let result = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(result.warnings)
                try StatisticsWriter.write(result.table, format: format, to: .standardOutput)
            }
        }
    }
}

extension CalendarIntervals.Unit: ExpressibleByArgument {}

extension StatisticsWriter.Format: ExpressibleByArgument {}
