import ArgumentParser
import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

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

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        }

        func run() throws {
            let log = filter.diagnostics(diagnostics)
            try log.run {
                let executor = QueryExecutor(try filter.makeQuery())
                let descriptors = try sort.map(ObjectSortDescriptor.init(parsing:))
                let source = try QuerySource(input)
                let writer = try makeWriter()
                let progress = ProgressLine(forced: diagnostics.progress, quiet: diagnostics.quiet)
                let sink = QueryPipeline(
                    executor: executor, writer: writer, progress: progress,
                    sorter: descriptors.isEmpty ? nil : ExternalSorter(sortDescriptors: descriptors, limit: limit),
                    limit: limit)
                do {
                    let summary: ExportReader.Summary?
                    do {
                        summary = try source.read(
                            into: sink, executor: executor, warning: { warning in
                                progress.clear()
                                log.warning(warning)
                            }, progress: { progress.update($0) })
                    } catch is QueryPipeline.LimitReached {
                        summary = nil
                    }
                    progress.clear()
                    try sink.finish()
                    try writer.finish()
                    if let summary { log.repeats(summary.warnings) }
                } catch {
                    progress.clear()
                    writer.abandon()
                    throw error
                }
            }
        }

        private func makeWriter() throws -> any ObjectWriter {
            let toStandardOutput = output.output == "-"
            let buffer = OutputBuffer(descriptor: 1)
            buffer.flushesEveryRecord = isatty(1) == 1
            switch output.format {
            case .ndjson:
                return toStandardOutput ? NDJSONWriter(buffer: buffer) : NDJSONWriter(file: try AtomicFile(destination: output.output))
            case .json:
                return toStandardOutput
                    ? JSONDocumentWriter(buffer: buffer) : JSONDocumentWriter(file: try AtomicFile(destination: output.output))
            case .csv:
                return toStandardOutput ? CSVWriter(standardOutput: buffer) : CSVWriter(file: try AtomicFile(destination: output.output))
            case .export:
                if output.output.lowercased().hasSuffix(".zip") {
                    throw QueryError(.errorInvalidArgument, "query writes export.xml; make an export archive with healthport convert --format export --output X.zip")
                }
                return toStandardOutput
                    ? ExportXMLWriter(buffer: buffer) : ExportXMLWriter(file: try AtomicFile(destination: output.output))
            }
        }
    }
}

/// Reader → executor → (sorter) → writer, for `query`.
final class QueryPipeline: ObjectSink {
    struct LimitReached: Error {}

    private let executor: QueryExecutor
    private let writer: any ObjectWriter
    private let progress: ProgressLine
    private let sorter: ExternalSorter?
    private let limit: Int?
    private var written = 0

    init(executor: QueryExecutor, writer: any ObjectWriter, progress: ProgressLine, sorter: ExternalSorter?, limit: Int?) {
        self.executor = executor
        self.writer = writer
        self.progress = progress
        self.sorter = sorter
        self.limit = limit
    }

    func exportDidBegin(_ header: ExportHeader) throws {
        try writer.begin(executor.header(header))
    }

    func consume(_ object: HealthObject) throws {
        guard executor.admits(object) else { return }
        // Counted after the read path: a count of hidden objects would hint at them.
        progress.objects += 1
        let transformed = try executor.transform(object)
        if let sorter {
            try sorter.add(transformed, payload: try writer.encode(transformed))
            return
        }
        // Without a sort, a limit keeps the first objects in document order and stops reading.
        if let limit, written >= limit { throw LimitReached() }
        try writer.write(transformed)
        written += 1
        if let limit, written >= limit { throw LimitReached() }
    }

    func finish() throws {
        try sorter?.drain { try writer.writeEncoded($0) }
    }
}

/// Where a query reads: an export, streamed, or the store, through its SQL prefilter.
enum QuerySource {
    case export(ExportReader)
    case store(HealthStore)

    init(_ options: ExportOrStoreOptions) throws {
        if let path = options.storePath {
            self = .store(try HealthStore.openForReading(at: path))
        } else {
            self = .export(try ExportReader.open(options.export ?? "-"))
        }
    }

    /// Streams what the query may see into the sink; the reader's summary for an export.
    func read(
        into sink: any ObjectSink, executor: QueryExecutor, warning: @escaping (ExportWarning) -> Void,
        progress: @escaping (ExportReader.Progress) -> Void
    ) throws -> ExportReader.Summary? {
        switch self {
        case .export(let reader):
            return try reader.read(into: sink, warning: warning, progress: progress, types: executor.typesToRead)
        case .store(let store):
            try store.read(query: executor, into: sink)
            return nil
        }
    }
}
