import ArgumentParser
import Foundation
import HealthEngine
import HealthOutput
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport convert`: the export as NDJSON, JSON or CSV.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert an export to NDJSON, JSON, CSV, Parquet, Apple's own export.xml or FHIR R4.",
            discussion: """
                Streams every object of the export (samples, correlations, workouts, activity \
                summaries, clinical records, audiograms, vision prescriptions) in document order. \
                NDJSON and JSON go to standard output or to a file; CSV writes one table per type \
                into a folder, or a single type to standard output. FHIR writes a Bulk Data folder \
                (one NDJSON file per resource type) or the Observations to standard output. See \
                healthport-convert(1) and healthport-formats(5).
                """)

        @Argument(
            help: ArgumentHelp(
                "The export (export.zip, the folder, export.xml, or - for standard input); several with --partition.",
                valueName: "export"),
            completion: .file(extensions: ["zip", "xml"]))
        var exports: [String]

        @OptionGroup var parsing: ParserOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var filter: FilterOptions
        @Flag(name: .long, help: "Workouts carry their route points inline (read from the GPX files).")
        var includeRoutes = false

        @Flag(name: .long, help: "Convert a broken (cut off) export up to the break, report where it stopped, and exit with status 3.")
        var salvage = false

        @Flag(
            name: .long,
            help: "CSV and Parquet folders: also write the daily summary and the sleep nights (daily-summary, sleep-nights), days cut in --tz, else the person's zone.")
        var summaries = false

        @Option(
            name: .long,
            help: ArgumentHelp("Write Hive-style partitions (key=value folders) into --output: person, type, or both.", valueName: "keys"))
        var partition: String? = nil

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Threads (default: the number of cores): one export is inflated and parsed in parallel; with --partition, this many exports at once.",
                valueName: "n"))
        var jobs: Int? = nil

        @Flag(name: .long, help: "With --partition: skip exports whose outputs the manifest records as complete.")
        var resume = false

        @Option(
            name: .long,
            help: ArgumentHelp("With --partition: a CSV file of 'input,person' lines naming each export's person.", valueName: "file"))
        var personId: String? = nil

        @OptionGroup var deidentification: DeidentifyOptions

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            // With a list of exports, ArgumentParser drops an unknown option and takes its value
            // for an export ("several exports need --partition"); say what was mistyped instead.
            try Suggestions.checkLongOptions(CommandLine.arguments, of: Self.self)
            if partition == nil {
                if exports.count > 1 { throw ValidationError("several exports need --partition (and --output DIR)") }
                if resume || personId != nil { throw ValidationError("--resume and --person-id go with --partition") }
            }
            if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
            if partition != nil {
                if output.output == "-" { throw ValidationError("--partition writes a folder: give --output DIR") }
                if !output.format.isTabular && output.format != .ndjson && output.format != .fhir {
                    throw ValidationError("--partition writes csv, parquet, ndjson or fhir")
                }
                if exports.contains("-") { throw ValidationError("--partition reads files, not standard input") }
            }
        }

        /// With `--summaries`: the zone days are cut in (`--tz`).
        func summarySettings() throws -> SummarySettings? {
            guard summaries else { return nil }
            return SummarySettings(timeZone: try filter.tz.map(TimeZoneNameResolver.resolve))
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var query = try filter.makeQuery()
                try deidentification.apply(to: &query, log: log)
                if let partition {
                    var batch = BatchConversionRun(
                        inputs: exports, persons: try BatchConversionRun.personKeys(for: exports, mapping: personId),
                        layout: try PartitionLayout(parsing: partition), format: output.format, root: output.output,
                        jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, query: query, healthportVersion: Healthport.version)
                    batch.resume = resume
                    batch.reading = parsing.reading
                    batch.parquet = output.parquet
                    batch.includeRoutes = includeRoutes
                    batch.summaries = try summarySettings()
                    batch.timeZone = try filter.tz.map(TimeZoneNameResolver.resolve)
                    batch.personKeysFromFileNames = personId == nil
                    let failed = try batch.run(reporter: log.reporter(), cancellation: Signals.cancellation)
                    if failed > 0 {
                        // A failure like any run's (category, status 65), so that a program reading
                        // --diagnostics json finds both in the last record.
                        let failure = RunError(.malformedInput, "\(failed) of \(exports.count) exports failed; see \(output.output)/\(BatchManifest.fileName)")
                        log.error(failure)
                        throw ExitCode(ExitStatus.of(failure.category).rawValue)
                    }
                    return
                }
                var run = ConversionRun(export: exports[0], query: query, format: output.format, output: output.output)
                run.includeRoutes = includeRoutes
                run.salvage = salvage
                run.summaries = try summarySettings()
                run.timeZone = try filter.tz.map(TimeZoneNameResolver.resolve)
                run.healthportVersion = Healthport.version
                run.parquet = output.parquet
                run.reading = parsing.reading
                run.reading.jobs = jobs
                run.reading.parallelChunkBytes = ProcessInfo.processInfo.environment["HEALTHPORT_PARALLEL_CHUNK_BYTES"].flatMap { Int($0) }
                    .map { max($0, 4096) }
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
                log.fhirSummary(summary.fhir)
                log.omhSummary(summary.omh)
                if let stop = summary.salvageStop {
                    // Always printed, even with --quiet: the output is incomplete.
                    Diagnostics(format: diagnostics.diagnosticFormat).warning(
                        "salvaged \(summary.written) objects; the export breaks here: \(OptionNames.message(of: stop))",
                        at: OptionNames.location(of: stop))
                    throw ExitCode(ExitStatus.salvaged.rawValue)
                }
            }
        }
    }
}
