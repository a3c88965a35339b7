import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// A conversion read on several threads: the export cut into chunks between top-level
/// elements, each parsed into a chunk writer behind a gate of its own (the reader's:
/// `ExportReader.readInParallel(_:into:…)`), the chunks' output appended in document order.
/// Only for writers that merge chunks (`ChunkMergingWriter`); the others read on one thread.
struct ParallelConversion<Writer: ChunkMergingWriter> {
    let writer: Writer

    /// Writes objects to a chunk's writer, without a header.
    final class ChunkWriterSink: ObjectSink {
        let writer: Writer.Chunk
        init(_ writer: Writer.Chunk) { self.writer = writer }
        func exportDidBegin(_ header: ExportHeader) throws {}
        @inline(__always)
        func consume(_ object: HealthObject) throws { try writer.write(object) }
    }

    /// Reads `reader` into `output` (whose writer is `writer`); returns the read's summary, whose
    /// `admitted` counts the objects written.
    func read(
        _ reader: ExportReader, into output: WriterSink, context: RunContext, jobs: Int, chunkBytes: Int
    ) throws -> ExportReader.Summary {
        let (executor, reporter, cancellation) = (context.executor, context.reporter, context.cancellation)
        return try reader.readInParallel(
            executor, into: output, jobs: jobs,
            makeChunkSink: { ChunkWriterSink(Writer.makeChunkWriter()) },
            merge: { chunk, _ in try writer.append(chunk.writer) },
            warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: value.admitted))
            },
            chunkBytes: chunkBytes, isCancelled: cancellation?.check)
    }
}
