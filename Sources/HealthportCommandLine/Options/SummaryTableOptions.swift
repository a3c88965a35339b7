import ArgumentParser
import Foundation
import HealthEngine
import HealthOutput
import HealthQuery

extension SummaryTableWriter.Format: ExpressibleByArgument {}

extension DayPeriods.Period: ExpressibleByArgument {}

/// The options `summary`, `sleep`, `days` and `workouts` share: the table's format and
/// destination, and the source priority of the merge.
package struct SummaryTableOptions: ParsableArguments {
    package init() {}

    @Option(name: .shortAndLong, help: "Output: text (a table, default), csv, json, ndjson, parquet, omh (Open mHealth data points; sleep and days), or fhir (FHIR Observations per night or day; sleep and days).")
    package var format: SummaryTableWriter.Format = .text

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Where to write: a file, X.parquet, or - for standard output (default).", valueName: "path"),
        completion: .file())
    package var output: String = "-"

    @Option(name: .long, help: "Parquet page compression: zstd (default), gzip or none.")
    package var compression: ParquetCompression = .zstd

    @Flag(name: .long, help: "CSV: begin with UTF-8's byte-order mark, so a spreadsheet (Excel) keeps accented names intact.")
    package var bom = false

    @OptionGroup package var priority: SourcePriorityOption

    @Option(
        name: .long,
        help: ArgumentHelp("Threads (default: the number of cores): the export is parsed in parallel, with the same rows.", valueName: "n"))
    package var jobs: Int? = nil

    package var parquet: ParquetOptions { ParquetOptions(compression: compression) }

    package func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
        if bom && format != .csv { throw ValidationError("--bom is for CSV (--format csv)") }
    }

    /// The run both commands make: the input, the filters (a date without an offset is the
    /// person's day), the zone days are cut in (`--tz`), the source priority.
    package func run(input: ExportOrStoreOptions, filter: FilterOptions) throws -> SummaryRun {
        var run = SummaryRun(input: input.objectInput, query: try filter.makeQuery())
        run.reading = input.parsing.reading
        run.reading.jobs = jobs
        run.settings = try settings(filter: filter)
        return run
    }

    /// Writes one of the run's tables as and where these options say, through the command's
    /// diagnostics, then repeats its warnings: how `summary`, `sleep` and `workouts` end.
    package func write(_ kind: SummaryTableWriter.Table, of run: SummaryRun, log: Diagnostics, showing diagnostics: DiagnosticOptions) throws {
        let summary = try log.perform(showing: diagnostics) {
            try run.write(kind, format: format, to: output, parquet: parquet, byteOrderMark: bom, reporter: $0, cancellation: $1)
        }
        log.repeats(summary.warnings)
        log.omhSummary(summary.omh)
        log.fhirSummary(summary.fhir)
    }

    /// The zone days are cut in (`--tz`) and the source priority.
    package func settings(filter: FilterOptions) throws -> SummarySettings {
        SummarySettings(
            timeZone: try filter.tz.map(TimeZoneNameResolver.resolve),
            sourcePriority: priority.names)
    }
}
