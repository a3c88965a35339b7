import ArgumentParser
import HealthEngine
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport query`: a sample query over an export (HealthKit: `HKSampleQueryDescriptor`).
    struct Query: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Select, sort and limit the objects of an export, like HealthKit's sample query.",
            discussion: """
                The filters of convert, plus --sort and --limit. Sorting with a limit keeps only \
                that many objects in memory; a full sort spills sorted runs to private temporary \
                files. CSV output is one table. Without an export, reads the store \
                (healthport-store(5)). See healthport-query(1).
                """)

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .long, help: ArgumentHelp("Sort by this key, ascending or descending (startDate:desc); repeatable.", valueName: "key[:asc|desc]"))
        var sort: [String] = []

        @Option(name: .long, help: ArgumentHelp("Return at most this many objects.", valueName: "n"))
        var limit: Int? = nil

        @OptionGroup var deidentification: DeidentifyOptions

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var query = try filter.makeQuery()
                try deidentification.apply(to: &query, log: log)
                var run = SampleQueryRun(
                    input: input.objectInput, query: query, sortDescriptors: try sort.map(ObjectSortDescriptor.init(parsing:)),
                    limit: limit, format: output.format, output: output.output)
                run.parquet = output.parquet
                run.timeZone = try filter.tz.map(TimeZoneNameResolver.resolve)
                run.healthportVersion = Healthport.version
                run.reading = input.parsing.reading
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
                log.fhirSummary(summary.fhir)
                log.omhSummary(summary.omh)
            }
        }
    }
}
