import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// A conversion read on several threads: the export cut into chunks between top-level
/// elements, each parsed through a gate of its own into a chunk writer, the chunks' output
/// appended in document order. Only for writers that merge chunks (`ChunkMergingWriter`); the
/// others read on one thread.
struct ParallelConversion<Writer: ChunkMergingWriter> {
    let writer: Writer

    /// A chunk's sink: its own gate in front of its own writer. The header is the whole
    /// conversion's to write, not a chunk's.
    final class Chunk: ObjectSink {
        let writer: Writer.Chunk
        private let gate: QueryGate
        var admitted: Int { gate.admitted }

        init(executor: QueryExecutor, writer: Writer.Chunk, cancellation: RunCancellation?) {
            self.writer = writer
            gate = QueryGate(executor, into: ChunkWriterSink(writer), isCancelled: cancellation?.check)
        }

        func exportDidBegin(_ header: ExportHeader) throws {}

        @inline(__always)
        func consume(_ object: HealthObject) throws { try gate.consume(object) }
    }

    /// Writes objects to a chunk's writer, without a header.
    final class ChunkWriterSink: ObjectSink {
        let writer: Writer.Chunk
        init(_ writer: Writer.Chunk) { self.writer = writer }
        func exportDidBegin(_ header: ExportHeader) throws {}
        @inline(__always)
        func consume(_ object: HealthObject) throws { try writer.write(object) }
    }

    /// Reads `reader` into `output` (whose writer is `writer`); returns the read's summary and
    /// the objects written.
    func read(
        _ reader: ExportReader, into output: WriterSink, context: RunContext, jobs: Int, chunkBytes: Int
    ) throws -> (ExportReader.Summary, Int) {
        let (executor, reporter, cancellation) = (context.executor, context.reporter, context.cancellation)
        let gate = QueryGate(executor, into: output, isCancelled: cancellation?.check)
        var merged = 0
        let summary = try reader.readInParallel(
            into: gate, jobs: jobs,
            makeChunkSink: { Chunk(executor: executor, writer: Writer.makeChunkWriter(), cancellation: cancellation) },
            merge: { chunk in
                merged += chunk.admitted
                try writer.append(chunk.writer)
            },
            warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: gate.admitted + merged))
            },
            types: executor.typesToRead, chunkBytes: chunkBytes)
        return (summary, gate.admitted + merged)
    }
}
