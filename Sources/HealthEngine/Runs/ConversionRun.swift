import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// A conversion: every object of an export the query admits, in document order, in one format
/// (`healthport convert`).
///
/// For example:
/// ```swift
/// var run = ConversionRun(export: "export.zip", format: .csv, output: "health-csv")
/// run.query.types = ["HKQuantityTypeIdentifierStepCount"]
/// let summary = try run.run()
/// ```
public struct ConversionRun: Sendable {
    /// The export: a zip, the unzipped folder, export.xml, healthport's NDJSON, or `-`.
    public var export: String
    public var query: ObjectQuery
    public var format: ObjectFormat
    /// A file (NDJSON, JSON, export; `X.zip` makes an export archive), a folder (CSV), or `-`.
    public var output: String
    /// Workouts carry their routes' points, read from the GPX files.
    public var includeRoutes = false
    /// Read a broken export up to the break instead of failing (`Summary.salvageStop`).
    public var salvage = false
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    /// How Parquet files are written (`--format parquet`).
    public var parquet = ParquetOptions()
    /// Also write the summary tables (`daily-summary`, `sleep-nights`) into the folder of
    /// tables, made from the objects written (`convert --summaries`); CSV or Parquet folders, or
    /// FHIR, whose days and nights are Observations beside the samples'.
    /// The person's zone, for the local times samples that name none are given in (`--tz`);
    /// `nil`: decided as every summary decides it (`PersonZone`).
    public var timeZone: TimeZone?
    public var summaries: SummarySettings?
    /// Recorded in the de-identification manifest (`query.deidentification`).
    public var healthportVersion = ""

    public init(export: String, query: ObjectQuery = ObjectQuery(), format: ObjectFormat = .ndjson, output: String = "-") {
        self.export = export
        self.query = query
        self.format = format
        self.output = output
    }

    public struct Summary: Sendable {
        /// The export's header, as the consumer may see it.
        public var header: ExportHeader
        /// Objects written (after the query and the policy).
        public var written: Int
        public var warnings: [RepeatedWarning]
        /// With `salvage`: where the broken export stopped; what came before was written.
        public var salvageStop: RunError?
        /// With `--format fhir`: how the resources were coded, per kind, and what was left out.
        public var fhir: FHIRCodingTally? = nil
        /// With `--format omh`: the data points written per schema, and what no schema takes.
        public var omh: OpenMHealthTally? = nil
    }

    /// - Throws: `RunError`; the output is then left as it was (nothing half-written).
    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    private func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        try OutputInputGuard.check(outputs: [output], inputs: [export], query: query)
        try Self.checkRoutes(includeRoutes, query: query)
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let (executor, reporter) = (context.executor, context.reporter)
        try SingleTableOutput.check(query, format: format, output: output)
        let localTimes =
            format.givesLocalTimes
            ? try PersonZone.setting(
                query: query, given: timeZone, input: .export(export), reading: reading, reporter: reporter, cancellation: cancellation)
            : .none
        let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
        let made = try makeWriter(reader: reader, executor: executor, reporter: reporter, localTimes: localTimes)
        let writer = made.writer
        do {
            // The summary tables go into the same staged folder as the objects' tables.
            var tables: (pass: SummaryPass, destination: any SummaryTableDestination)? = nil
            if let summaries {
                let folder = output != "-" && !(format == .parquet && ParquetWriter.isSingleFile(output))
                // FHIR writes the days and nights as Observations beside the samples', in a
                // folder (Observation.ndjson) or on standard output.
                guard (format.isTabular && folder) || format == .fhir, let destination = writer as? any SummaryTableDestination else {
                    throw QueryError(
                        .errorInvalidArgument,
                        "\(argument: .summaries) are tables or FHIR Observations: write csv or parquet to a folder (\(argument: .format, "csv", neutral: "CSV")), or fhir",
                        argument: .summaries)
                }
                tables = (SummaryPass(settings: summaries), destination)
            }
            let objects = WriterSink(writer)
            let output: any ObjectSink = tables.map { TeeSink(objects, $0.pass.sink) } ?? objects
            let read = context.read(reader)
            let threads = reading.jobs ?? ProcessInfo.processInfo.activeProcessorCount
            let summary: ExportReader.Summary
            // A zone learnt from the header (an input read once: `PersonZone`) reaches the
            // writer, not its chunks: such a read stays on one thread.
            let zoneFromHeader = localTimes == .given(personZone: nil)
            if threads > 1, reader.canReadInParallel, !includeRoutes, !salvage, !zoneFromHeader, case .mergingChunks(let merging) = made {
                summary = try Self.readInParallel(
                    reader, into: merging, output: output, summary: tables?.pass.collector, context: context, jobs: threads,
                    chunkBytes: reading.parallelChunkBytes ?? ExportReader.parallelChunkBytes)
            } else {
                let sink: any ObjectSink =
                    includeRoutes ? RouteAttachingSink(into: output, routes: RouteLoading(reader: reader, reporter: reporter)) : output
                summary = try read.run(into: sink, salvage: salvage)
            }
            if summary.salvageStop != nil && !objects.hasBegun { try objects.exportDidBegin(executor.visibleHeader(summary.header)) }
            var recordings = 0
            if let fhir = writer as? FHIRBulkWriter, summary.salvageStop == nil {
                // FHIR is the whole record: the ECG recordings beside the document too, as
                // Observations with their voltages (what `healthport ecg` reads), through the gate.
                try ElectrocardiogramFiles.visible(in: reader, query: executor, reporter: reporter) { _, recording in
                    try fhir.write(.electrocardiogram(recording))
                    recordings += 1
                }
            }
            // After every object's resource: FHIR's days and nights follow the samples'.
            if let tables {
                try tables.pass.finish(
                    into: tables.destination, window: query.dateWindow, reporter: reporter, disclosesExportFacts: context.disclosure.exportFacts,
                    cancellation: cancellation)
            }
            try writer.finish()
            try DeidentificationManifestFile.write(
                query: query, format: format, output: self.output,
                isFolder: (writer as? CSVWriter)?.writesFolder == true || format == .fhir || (format == .parquet && !ParquetWriter.isSingleFile(self.output)),
                healthportVersion: healthportVersion)
            return Summary(
                header: executor.visibleHeader(summary.header), written: summary.admitted + recordings,
                warnings: context.warnings(of: summary),
                salvageStop: summary.salvageStop.map { RunError($0) }, fhir: (writer as? FHIRBulkWriter)?.tally,
                omh: (writer as? OpenMHealthWriter)?.tally)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Workouts' routes are what de-identification removes: asking for their points too is a
    /// contradiction, said before anything is read.
    static func checkRoutes(_ includeRoutes: Bool, query: ObjectQuery) throws {
        guard includeRoutes, query.deidentification != nil else { return }
        throw QueryError(
            .errorInvalidArgument, "de-identification removes workout routes: leave out \(argument: .includeRoutes)", argument: .deidentify)
    }

    /// The parallel read, for the writer's own type (the factory's `mergingChunks` case).
    private static func readInParallel<Writer: ChunkMergingWriter>(
        _ reader: ExportReader, into writer: Writer, output: any ObjectSink, summary: SummaryCollector?, context: RunContext, jobs: Int,
        chunkBytes: Int
    ) throws -> ExportReader.Summary {
        try ParallelConversion(writer: writer, summary: summary).read(
            reader, into: output, context: context, jobs: jobs, chunkBytes: chunkBytes)
    }

    private func makeWriter(
        reader: ExportReader, executor: QueryExecutor, reporter: RunReporter, localTimes: LocalTimeSetting
    ) throws -> ObjectWriterFactory.Made {
        if format == .fhir {
            // The clinical records' resources, read as the gate discloses them.
            let resources = ObjectWriterFactory.ArchiveContents(sideFile: { try reader.sideFile($0) }, additionalFiles: { [] })
            return try ObjectWriterFactory.make(format, to: OutputDestination(output), csvLayout: .folderOfTables, archive: resources)
        }
        let archive = ObjectWriterFactory.ArchiveContents(
            sideFile: { path in
                guard let data = try reader.sideFile(path) else {
                    reporter.warning(.sideFile("\(path) is missing from the export; the archive lacks it too"))
                    return nil
                }
                return Self.carried(data, path: path, executor: executor)
            },
            additionalFiles: { try Self.additionalArchiveFiles(reader: reader, executor: executor, reporter: reporter) })
        return try ObjectWriterFactory.make(
            format, to: OutputDestination(output), csvLayout: .folderOfTables, archive: archive, parquet: parquet,
            selectedType: query.types?.count == 1 ? query.types?.first : nil, localTimes: localTimes)
    }

    /// A side file as the archive carries it: an ECG file without the person's name (under a
    /// policy, or when its date of birth is not shown) and without the date of birth the
    /// consumer does not see; the others as they are.
    static func carried(_ data: Data, path: String, executor: QueryExecutor) -> Data {
        guard path.hasPrefix("electrocardiograms/"), path.lowercased().hasSuffix(".csv") else { return data }
        let dateOfBirth = executor.admitsCharacteristic("HKCharacteristicTypeIdentifierDateOfBirth")
        // The owner reading everything gets the file as Apple wrote it.
        if dateOfBirth && executor.disclosure.personalDetails { return data }
        return ElectrocardiogramFileRedaction.redacting(data, keepingDateOfBirth: dateOfBirth)
    }

    /// What an export archive carries besides the side files its objects name: the ECG files
    /// whose recordings pass the gate, and the CDA document when the query discloses the whole
    /// export (it holds everything, and cannot be filtered faithfully).
    static func additionalArchiveFiles(reader: ExportReader, executor: QueryExecutor, reporter: RunReporter) throws -> [String] {
        // ECG files name the recording's date and the person; a de-identified archive has the
        // document alone.
        if executor.query.deidentification != nil { return [] }
        var files: [String] = []
        try ElectrocardiogramFiles.visible(in: reader, query: executor, reporter: reporter) { file, _ in files.append(file) }
        if let cda = reader.cdaDocument(for: executor) { files.append(cda) }
        return files
    }
}
