import HealthModel
import HealthQuery

/// The only way objects leave an export: through the gate of a query, installed here by the
/// reader itself (as GRDB installs its authorizer on the connection), never by its callers.
///
/// A run hands the reader its query; the reader builds the `QueryGate` in front of the run's
/// sink (and, read on several threads, in front of each chunk's), so a face cannot forget the
/// policy, or hand the reader's objects to a sink directly: the ungated read is internal to
/// this module. The owner's reads are no exception: they pass `QueryExecutor.everything`,
/// which admits every object as it was read.
///
/// Objects that pass the gate also open the side files they refer to (`sideFile(_:)`): a
/// workout's route, a clinical record's FHIR resource.
extension ExportReader {
    /// Streams the objects `query` admits, as the consumer may see them, to `sink`: the header
    /// first (with the characteristics the query admits), then each object in document order.
    ///
    /// - Parameters:
    ///   - warning: called once per kind of warning, when it is first met. Warnings describe the
    ///     export as a file: a run shows them only when `query.disclosure.exportFacts`.
    ///   - progress: called after each chunk; `admitted` counts the objects let through.
    ///   - types: the types to build, when narrower than the query's (`typesToRead`); the gate
    ///     decides either way.
    ///   - salvage: read a broken export up to the break (`Summary.salvageStop`).
    ///   - isCancelled: asked every 1,024 objects; true stops the read (`CancellationError`).
    /// - Returns: the read's summary, `admitted` set.
    /// - Throws: `ExportError` for bad input (located), or the sink's own error unchanged.
    public func read(
        _ query: QueryExecutor, into sink: any ObjectSink, warning: @escaping (ExportWarning) -> Void = { _ in },
        progress: ((Progress) -> Void)? = nil, types: Set<String>? = nil, salvage: Bool = false,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) throws -> Summary {
        let gate = QueryGate(query, into: disclosedSideFiles.recording(into: sink), isCancelled: isCancelled)
        var summary = try readUngated(
            into: gate, warning: warning,
            progress: progress.map { report in
                { value in
                    var value = value
                    value.admitted = gate.admitted
                    report(value)
                }
            },
            types: types ?? query.typesToRead, salvage: salvage)
        summary.admitted = gate.admitted
        return summary
    }

    /// Reads the export with `jobs` threads (see `readInParallelUngated`), each chunk through a
    /// gate of its own in front of the sink `makeChunkSink` makes; `merge` takes each chunk's
    /// sink back in document order, with how many objects its gate let through. Falls back to
    /// `read(_:into:…)` when the input cannot be split.
    public func readInParallel<ChunkSink: ObjectSink>(
        _ query: QueryExecutor, into sink: any ObjectSink, jobs: Int, makeChunkSink: @escaping @Sendable () -> ChunkSink,
        merge: (_ chunk: ChunkSink, _ admitted: Int) throws -> Void, warning: @escaping (ExportWarning) -> Void = { _ in },
        progress: ((Progress) -> Void)? = nil, chunkBytes: Int = ExportReader.parallelChunkBytes,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) throws -> Summary {
        let gate = QueryGate(query, into: disclosedSideFiles.recording(into: sink), isCancelled: isCancelled)
        let disclosed = disclosedSideFiles
        var merged = 0
        var summary = try readInParallelUngated(
            into: gate, jobs: jobs,
            makeChunkSink: { GatedChunk(query, into: makeChunkSink(), disclosed: disclosed, isCancelled: isCancelled) },
            merge: { chunk in
                merged += chunk.admitted
                try merge(chunk.sink, chunk.admitted)
            },
            warning: warning,
            progress: progress.map { report in
                { value in
                    var value = value
                    value.admitted = gate.admitted + merged
                    report(value)
                }
            },
            types: query.typesToRead, chunkBytes: chunkBytes)
        summary.admitted = gate.admitted + merged
        return summary
    }
}

/// One chunk's sink behind its own gate. The header is the whole read's, not a chunk's.
final class GatedChunk<Inner: ObjectSink>: ObjectSink {
    let sink: Inner
    private let gate: QueryGate
    var admitted: Int { gate.admitted }

    init(_ query: QueryExecutor, into sink: Inner, disclosed: DisclosedSideFiles, isCancelled: (@Sendable () -> Bool)?) {
        self.sink = sink
        gate = QueryGate(query, into: disclosed.recording(into: sink), isCancelled: isCancelled)
    }

    func exportDidBegin(_ header: ExportHeader) throws {}

    @inline(__always)
    func consume(_ object: HealthObject) throws { try gate.consume(object) }
}
