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
    /// The summary tables made beside the objects (`convert --summaries`): each chunk makes
    /// its records too, and the collector takes them with the chunk's output.
    var summary: SummaryCollector? = nil

    /// Writes objects to a chunk's writer, without a header, and into the chunk's summary
    /// records when there is a summary.
    final class ChunkWriterSink: ObjectSink {
        let writer: Writer.Chunk
        let batch: SummaryRecordBatch?
        init(_ writer: Writer.Chunk, batch: SummaryRecordBatch?) {
            self.writer = writer
            self.batch = batch
        }
        func exportDidBegin(_ header: ExportHeader) throws {}
        @inline(__always)
        func consume(_ object: HealthObject) throws {
            try writer.write(object)
            batch?.add(object)
        }
    }

    /// Reads `reader` into `output` (whose writer is `writer`, and whose sink feeds the summary
    /// when there is one: the sequential fallback and the header go there); returns the read's summary, whose
    /// `admitted` counts the objects written.
    func read(
        _ reader: ExportReader, into output: any ObjectSink, context: RunContext, jobs: Int, chunkBytes: Int
    ) throws -> ExportReader.Summary {
        let (executor, reporter, cancellation) = (context.executor, context.reporter, context.cancellation)
        let (summary, makeBatch, localTimes) = (self.summary, self.summary?.makeBatch, writer.localTimeSetting)
        return try reader.readInParallel(
            executor, into: output, jobs: jobs,
            makeChunkSink: { ChunkWriterSink(Writer.makeChunkWriter(localTimes: localTimes), batch: makeBatch?()) },
            merge: { chunk, _ in
                try writer.append(chunk.writer)
                if let batch = chunk.batch { try summary?.absorb(batch) }
            },
            warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: value.admitted))
            },
            chunkBytes: chunkBytes, isCancelled: cancellation?.check)
    }
}
