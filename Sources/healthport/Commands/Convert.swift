import ArgumentParser
import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

extension Healthport {
    /// `healthport convert`: the export as NDJSON, JSON or CSV.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert an export to NDJSON, JSON or CSV.",
            discussion: """
                Streams every object of the export (samples, correlations, workouts, activity \
                summaries, clinical records, audiograms, vision prescriptions) in document order. \
                NDJSON and JSON go to standard output or to a file; CSV writes one table per type \
                into a folder, or a single type to standard output. See healthport-convert(1) and \
                healthport-formats(5).
                """)

        @Argument(
            help: ArgumentHelp(
                "The export (export.zip, the folder, export.xml, or - for standard input); several with --partition.",
                valueName: "export"),
            completion: .file(extensions: ["zip", "xml"]))
        var exports: [String]

        @OptionGroup var output: OutputOptions
        @OptionGroup var filter: FilterOptions
        @Flag(name: .long, help: "Workouts carry their route points inline (read from the GPX files).")
        var includeRoutes = false

        @Flag(name: .long, help: "Convert a broken (cut off) export up to the break, report where it stopped, and exit with status 3.")
        var salvage = false

        @Option(
            name: .long,
            help: ArgumentHelp("Write Hive-style partitions (key=value folders) into --output: person, type, or both.", valueName: "keys"))
        var partition: String? = nil

        @Option(name: .long, help: ArgumentHelp("With --partition: convert this many exports at once (default: the number of cores).", valueName: "n"))
        var jobs: Int? = nil

        @Flag(name: .long, help: "With --partition: skip exports whose outputs the manifest records as complete.")
        var resume = false

        @Option(
            name: .long,
            help: ArgumentHelp("With --partition: a CSV file of 'input,person' lines naming each export's person.", valueName: "file"))
        var personId: String? = nil

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if partition == nil {
                if exports.count > 1 { throw ValidationError("several exports need --partition (and --output DIR)") }
                if resume || personId != nil { throw ValidationError("--resume and --person-id go with --partition") }
            }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
            if partition != nil {
                if output.output == "-" { throw ValidationError("--partition writes a folder: give --output DIR") }
                if output.format != .csv && output.format != .ndjson { throw ValidationError("--partition writes csv or ndjson") }
                if exports.contains("-") { throw ValidationError("--partition reads files, not standard input") }
            }
        }

        func run() throws {
            let log = filter.diagnostics(diagnostics)
            try log.run {
                let executor = QueryExecutor(try filter.makeQuery())
                if let partition {
                    let layout = try PartitionLayout(parsing: partition)
                    if output.format == .csv && !layout.splitsByType {
                        throw QueryError(.errorInvalidArgument, "CSV holds one table per file: partition by type too (--partition person,type)")
                    }
                    let batch = BatchConversion(
                        inputs: exports, persons: try BatchConversion.personKeys(for: exports, mapping: personId), layout: layout,
                        format: output.format, root: output.output, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                        resume: resume, executor: executor, includeRoutes: includeRoutes, log: Diagnostics(quiet: diagnostics.quiet))
                    let failed = try batch.run()
                    if failed > 0 {
                        log.error("\(failed) of \(exports.count) exports failed; see \(output.output)/\(BatchManifest.fileName)")
                        throw ExitCode(ExitStatus.dataError.rawValue)
                    }
                    return
                }
                let reader = try ExportReader.open(exports[0], jobs: jobs)
                let writer = try makeWriter(reader: reader, executor: executor, log: log)
                let progress = ProgressLine(forced: diagnostics.progress, quiet: diagnostics.quiet)
                let pipeline = ConvertPipeline(executor: executor, writer: writer, progress: progress)
                if includeRoutes { pipeline.routeLoader = ConvertPipeline.routeLoader(reader: reader, log: log) }
                let warn: (ExportWarning) -> Void = { warning in
                    progress.clear()
                    log.warning(warning)
                }
                do {
                    let threads = jobs ?? ProcessInfo.processInfo.activeProcessorCount
                    let summary: ExportReader.Summary
                    if threads > 1, reader.canReadInParallel, !includeRoutes, !salvage, let makeChunkWriter = ConvertPipeline.chunkWriters(for: writer) {
                        summary = try reader.readInParallel(
                            into: pipeline, jobs: threads,
                            makeChunkSink: {
                                let chunk = ConvertPipeline(executor: executor, writer: makeChunkWriter(), progress: ProgressLine(forced: false, quiet: true))
                                chunk.isChunk = true
                                return chunk
                            },
                            merge: { try pipeline.append($0) }, warning: warn, progress: { progress.update($0) }, types: executor.typesToRead,
                            chunkBytes: ConvertPipeline.parallelChunkBytes)
                    } else {
                        summary = try reader.read(
                            into: pipeline, warning: warn, progress: { progress.update($0) }, types: executor.typesToRead, salvage: salvage)
                    }
                    progress.clear()
                    if summary.salvageStop != nil && !pipeline.hasBegun { try pipeline.exportDidBegin(summary.header) }
                    try writer.finish()
                    log.repeats(summary.warnings)
                    if let stop = summary.salvageStop {
                        // Always printed, even with --quiet: the output is incomplete.
                        Diagnostics().warning(
                            "salvaged \(pipeline.written) objects; the export breaks here: \(stop.message)", at: stop.location?.description)
                        throw ExitCode(ExitStatus.salvaged.rawValue)
                    }
                } catch {
                    progress.clear()
                    writer.abandon()
                    throw error
                }
            }
        }

        private func makeWriter(reader: ExportReader, executor: QueryExecutor, log: Diagnostics) throws -> any ObjectWriter {
            let toStandardOutput = output.output == "-"
            func standardOutput() -> OutputBuffer {
                let buffer = OutputBuffer(descriptor: 1)
                buffer.flushesEveryRecord = isatty(1) == 1
                return buffer
            }
            switch output.format {
            case .ndjson:
                return toStandardOutput
                    ? NDJSONWriter(buffer: standardOutput()) : NDJSONWriter(file: try AtomicFile(destination: output.output))
            case .json:
                return toStandardOutput
                    ? JSONDocumentWriter(buffer: standardOutput())
                    : JSONDocumentWriter(file: try AtomicFile(destination: output.output))
            case .csv:
                return toStandardOutput
                    ? CSVWriter(standardOutput: standardOutput()) : try CSVWriter(folder: output.output)
            case .export:
                if toStandardOutput { return ExportXMLWriter(buffer: standardOutput()) }
                guard output.output.lowercased().hasSuffix(".zip") else {
                    return ExportXMLWriter(file: try AtomicFile(destination: output.output))
                }
                let archive = try ExportArchiveWriter(destination: output.output) { path in
                    guard let data = try reader.attachment(path) else {
                        log.warning("\(path) is missing from the export; the archive lacks it too")
                        return nil
                    }
                    return data
                }
                archive.additionalFiles = try ExportArchiveContents.additionalFiles(reader: reader, executor: executor, log: log)
                return archive
            }
        }
    }
}

/// Connects the reader to a writer through the query executor: the only path from parsed
/// objects to output.
final class ConvertPipeline: ObjectSink {
    private let executor: QueryExecutor
    private let writer: any ObjectWriter
    private let progress: ProgressLine
    /// With `--include-routes`: reads a route's points from its GPX file.
    var routeLoader: ((String) throws -> [RoutePoint]?)? = nil

    /// Reads a route's points from its GPX file; a missing or bad file is a warning.
    static func routeLoader(reader: ExportReader, log: Diagnostics) -> (String) throws -> [RoutePoint]? {
        { reference in
            do {
                guard let data = try reader.attachment(reference) else {
                    log.warning("the route file \(reference) is missing from the export")
                    return nil
                }
                return try GPXReader.points(in: data, file: SourceLocation(file: reader.input.displayName, member: reference))
            } catch let error as ExportError where error.code != .unsafeMemberPath {
                log.warning(error.message, at: error.location?.description)
                return nil
            }
        }
    }

    init(executor: QueryExecutor, writer: any ObjectWriter, progress: ProgressLine) {
        self.executor = executor
        self.writer = writer
        self.progress = progress
    }

    private(set) var hasBegun = false
    /// Objects written (after the filters and the policy).
    private(set) var written = 0

    /// Parallel reads cut the export into chunks of this size; `HEALTHPORT_PARALLEL_CHUNK_BYTES`
    /// sets another, so that tests get many chunks from small exports.
    static var parallelChunkBytes: Int {
        ProcessInfo.processInfo.environment["HEALTHPORT_PARALLEL_CHUNK_BYTES"].flatMap { Int($0) }.map { max($0, 4096) }
            ?? ExportReader.parallelChunkBytes
    }

    /// How chunks of a parallel read write, for the writers whose output can be put together
    /// from chunks: NDJSON, and CSV into a folder. `nil` for the others (JSON's separators,
    /// the export writer's archive, CSV on standard output's single table), which read on one
    /// thread.
    static func chunkWriters(for writer: any ObjectWriter) -> (@Sendable () -> any ObjectWriter)? {
        if writer is NDJSONWriter { return { NDJSONWriter.forChunk() } }
        if let csv = writer as? CSVWriter, csv.writesFolder { return { CSVWriter.forChunk() } }
        return nil
    }

    /// Takes over what a chunk's pipeline wrote, in document order.
    func append(_ chunk: ConvertPipeline) throws {
        written += chunk.written
        progress.objects += chunk.written
        if let ndjson = writer as? NDJSONWriter, let part = chunk.writer as? NDJSONWriter {
            try ndjson.append(part)
        } else if let csv = writer as? CSVWriter, let part = chunk.writer as? CSVWriter {
            try csv.append(part)
        } else {
            preconditionFailure("chunk writers are made by chunkWriters(for:)")
        }
    }

    /// A chunk's pipeline (parallel reads): the header is the real pipeline's to write.
    var isChunk = false

    func exportDidBegin(_ header: ExportHeader) throws {
        if isChunk { return }
        hasBegun = true
        try writer.begin(executor.header(header))
    }

    func consume(_ object: HealthObject) throws {
        guard executor.admits(object) else { return }
        // Counted after the read path: a count of hidden objects would hint at them.
        progress.objects += 1
        written += 1
        guard executor.transformsObjects || routeLoader != nil else {
            // The common case, without copying the object (a copy retains every string in it).
            try writer.write(object)
            return
        }
        var visible = executor.transformsObjects ? try executor.transform(object) : object
        if let routeLoader, case .workout(var workout) = visible {
            for index in workout.routes.indices {
                guard let reference = workout.routes[index].fileReference, let points = try routeLoader(reference) else { continue }
                workout.routes[index].locations = points.map {
                    RouteLocation(date: $0.time, latitude: $0.latitude, longitude: $0.longitude, altitude: $0.elevation,
                                  horizontalAccuracy: $0.horizontalAccuracy, verticalAccuracy: $0.verticalAccuracy,
                                  course: $0.course, speed: $0.speed)
                }
            }
            visible = .workout(workout)
        }
        try writer.write(visible)
    }
}

/// What an export archive carries besides the side files its objects name.
enum ExportArchiveContents {
    /// The ECG files whose recordings the query admits, and the CDA document when nothing is
    /// filtered (it holds everything, and cannot be filtered faithfully).
    static func additionalFiles(reader: ExportReader, executor: QueryExecutor, log: Diagnostics) throws -> [String] {
        var files: [String] = []
        try Healthport.ECG.admittedRecordings(reader: reader, executor: executor, log: log) { file, _ in files.append(file) }
        let query = executor.query
        let unfiltered = query.types == nil && query.predicate == nil && query.dateWindow == nil && query.sources.isEmpty
            && query.devices.isEmpty && query.uuids.isEmpty && query.outputUnit == nil && query.policy == nil
        if unfiltered, reader.layout.sideFiles.contains("export_cda.xml") { files.append("export_cda.xml") }
        return files
    }
}
