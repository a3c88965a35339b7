import HealthModel
import HealthQuery

/// An export as an `ObjectSource`: what the store's import, and any consumer that does not
/// know about readers, takes. It reads once, through the gate of the query it was made with
/// (the owner's import: `QueryExecutor.everything`), and keeps the read's summary (warnings,
/// header, salvage stop) for the caller afterwards.
public final class ExportObjectSource: ObjectSource {
    public let reader: ExportReader
    private let query: QueryExecutor
    private let warning: (ExportWarning) -> Void
    private let progress: ((ExportReader.Progress) -> Void)?
    private let salvage: Bool
    /// The read's summary, once `stream(into:)` has returned.
    public private(set) var summary: ExportReader.Summary?

    public init(
        _ reader: ExportReader, query: QueryExecutor, warning: @escaping (ExportWarning) -> Void = { _ in },
        progress: ((ExportReader.Progress) -> Void)? = nil, salvage: Bool = false
    ) {
        self.reader = reader
        self.query = query
        self.warning = warning
        self.progress = progress
        self.salvage = salvage
    }

    public func stream(into sink: any ObjectSink) throws {
        summary = try reader.read(query, into: sink, warning: warning, progress: progress, salvage: salvage)
    }
}

extension ExportObjectSource: ChunkedObjectSource {
    /// Reads on the reader's `jobs` threads (`ExportReader.readInParallel`); a salvaging read, or
    /// one thread, reads in order into `sink` alone.
    public func stream<Chunk: ObjectSink>(
        into sink: any ObjectSink, makeChunkSink: @escaping @Sendable () -> Chunk, merge: @escaping (Chunk) throws -> Void
    ) throws {
        guard !salvage, reader.jobs > 1 else { return try stream(into: sink) }
        summary = try reader.readInParallel(
            query, into: sink, jobs: reader.jobs, makeChunkSink: makeChunkSink, merge: { chunk, _ in try merge(chunk) },
            warning: warning, progress: progress)
    }
}
