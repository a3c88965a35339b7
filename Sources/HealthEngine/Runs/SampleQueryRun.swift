import Foundation
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// A sample query (HealthKit: `HKSampleQueryDescriptor`): the objects an export or the store
/// holds that the query admits, sorted, at most `limit` of them (`healthport query`).
///
/// Sorting with a limit keeps only that many objects in memory; a full sort spills sorted runs
/// to private temporary files. Without a sort, a limit stops the read early.
public struct SampleQueryRun: Sendable {
    public var input: ObjectInput
    /// How an export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var query: ObjectQuery
    public var sortDescriptors: [ObjectSortDescriptor]
    public var limit: Int?
    public var format: ObjectFormat
    /// How Parquet files are written (`--format parquet`).
    public var parquet = ParquetOptions()
    /// A file (CSV: one table), or `-`.
    public var output: String
    /// Recorded in the de-identification manifest (`query.deidentification`).
    public var healthportVersion = ""
    /// The person's zone, for the local times samples that name none are given in (`--tz`);
    /// `nil`: decided as every summary decides it (`PersonZone`).
    public var timeZone: TimeZone?

    public init(
        input: ObjectInput, query: ObjectQuery = ObjectQuery(), sortDescriptors: [ObjectSortDescriptor] = [], limit: Int? = nil,
        format: ObjectFormat = .ndjson, output: String = "-"
    ) {
        self.input = input
        self.query = query
        self.sortDescriptors = sortDescriptors
        self.limit = limit
        self.format = format
        self.output = output
    }

    public struct Summary: Sendable {
        public var written: Int
        public var warnings: [RepeatedWarning]
        /// With `--format fhir`: how the resources were coded, per kind, and what was left out.
        public var fhir: FHIRCodingTally? = nil
        /// With `--format omh`: the data points written per schema, and what no schema takes.
        public var omh: OpenMHealthTally? = nil
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    private func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        try SingleTableOutput.check(query, format: format, output: output, csvIsOneTable: true)
        switch input {
        case .export(let path), .store(let path): try OutputInputGuard.check(outputs: [output], inputs: [path], query: query)
        }
        let opened = try OpenedInput(input, reading: reading, cancellation: cancellation, reporter: reporter)
        if format == .export, output.lowercased().hasSuffix(".zip") {
            throw QueryError(
                .errorInvalidArgument, "query writes export.xml; make an export archive with \(request: .exportArchive)", argument: .output)
        }
        // FHIR passes clinical records' resources through: an export has them, the store not.
        var resources: ObjectWriterFactory.ArchiveContents? = nil
        if format == .fhir, case .export(let reader) = opened {
            resources = ObjectWriterFactory.ArchiveContents(sideFile: { try reader.sideFile($0) }, additionalFiles: { [] })
        }
        let localTimes =
            format.givesLocalTimes
            ? try PersonZone.setting(
                query: query, given: timeZone, input: input, reading: reading, reporter: reporter, cancellation: cancellation)
            : .none
        let writer = try ObjectWriterFactory.make(
            format, to: OutputDestination(output), csvLayout: .singleTable, archive: resources, parquet: parquet,
            selectedType: query.types?.count == 1 ? query.types?.first : nil, localTimes: localTimes
        ).writer
        var summary = try read(opened, context: context, into: writer, cancellation: cancellation)
        summary.fhir = (writer as? FHIRBulkWriter)?.tally
        summary.omh = (writer as? OpenMHealthWriter)?.tally
        try DeidentificationManifestFile.write(
            query: query, format: format, output: output,
            isFolder: format == .fhir || (format == .parquet && !ParquetWriter.isSingleFile(output)), healthportVersion: healthportVersion,
            extra: ["sort": sortDescriptors.isEmpty ? "none" : "given", "limit": limit.map(String.init) ?? "none"])
        return summary
    }

    /// The objects the query admits, sorted and limited exactly as `run` writes them, as
    /// values: what a Swift API (`HealthKitPort`'s `HKSampleQueryDescriptor`) returns.
    ///
    /// The same path as `run` (the gate, the external sorter, the limit), with a writer that
    /// keeps the objects instead of printing them; `format` and `output` are not used.
    ///
    /// - Complexity: holds every returned object in memory: pass a `limit` for large types.
    public func objects(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> [HealthObject] {
        try RunError.wrapping {
            let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
            let writer = CollectingObjectWriter()
            _ = try read(try OpenedInput(input, reading: reading, cancellation: cancellation, reporter: reporter), context: context, into: writer, cancellation: cancellation)
            return writer.objects
        }
    }

    private func read(_ opened: OpenedInput, context: RunContext, into writer: any ObjectWriter, cancellation: RunCancellation?) throws -> Summary {
        let executor = context.executor
        let sink = SortingLimitingSink(
            writer: writer, sorter: sortDescriptors.isEmpty ? nil : ExternalSorter(sortDescriptors: sortDescriptors, limit: limit),
            limit: limit)
        do {
            var warnings: [RepeatedWarning] = []
            do {
                switch opened {
                case .export(let reader):
                    let read = context.read(reader)
                    let summary = try read.run(into: sink)
                    warnings = context.warnings(of: summary)
                case .store(let store):
                    try store.read(query: executor, into: sink, isCancelled: cancellation?.check)
                }
            } catch is EnoughObjects {
                // The limit was reached without a sort: the rest is not read.
            }
            try sink.finish()
            try writer.finish()
            return Summary(written: sink.written, warnings: warnings)
        } catch {
            writer.abandon()
            throw error
        }
    }
}

/// After the gate: sorts (through the external sorter) or stops at the limit.
///
/// Sorted objects wait as healthport's JSON (the codec reads back exactly what it wrote, uuids
/// and numbers' spellings included) and are written when drained, through the writer like any
/// object: no format has to produce row bytes of its own, so a columnar one can be sorted too.
final class SortingLimitingSink: ObjectSink {
    private let writer: any ObjectWriter
    private let sorter: ExternalSorter?
    private let limit: Int?
    private(set) var written = 0
    private let codec = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))

    init(writer: any ObjectWriter, sorter: ExternalSorter?, limit: Int?) {
        self.writer = writer
        self.sorter = sorter
        self.limit = limit
    }

    func exportDidBegin(_ header: ExportHeader) throws {
        try writer.begin(header)
    }

    func consume(_ object: HealthObject) throws {
        if let sorter {
            try sorter.add(object, payload: try codec.encode(object))
            return
        }
        // Without a sort, a limit keeps the first objects in document order and stops reading.
        if let limit, written >= limit { throw EnoughObjects() }
        try writer.write(object)
        written += 1
        if let limit, written >= limit { throw EnoughObjects() }
    }

    func finish() throws {
        try sorter?.drain { record in
            try writer.write(try ObjectDecoder.decode(Array(record.dropLast())))
            written += 1
        }
    }
}
