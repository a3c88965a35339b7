import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// A conversion read on several threads: the export cut into chunks between top-level
/// elements, each parsed through a gate of its own into a chunk writer, the chunks' output
/// appended in document order. Only for writers whose output can be put together from chunks
/// (NDJSON, CSV into a folder); the others read on one thread.
struct ParallelConversion {
    private let makeChunkWriter: @Sendable () -> any ObjectWriter
    private let append: (any ObjectWriter) throws -> Void

    /// `nil` when `writer` cannot be fed by chunks.
    init?(writer: any ObjectWriter) {
        if let ndjson = writer as? NDJSONWriter {
            makeChunkWriter = { NDJSONWriter.forChunk() }
            append = { chunk in
                guard let chunk = chunk as? NDJSONWriter else { return }
                try ndjson.append(chunk)
            }
        } else if let csv = writer as? CSVWriter, csv.writesFolder {
            makeChunkWriter = { CSVWriter.forChunk() }
            append = { chunk in
                guard let chunk = chunk as? CSVWriter else { return }
                try csv.append(chunk)
            }
        } else {
            return nil
        }
    }

    /// A chunk's sink: its own gate in front of its own writer. The header is the whole
    /// conversion's to write, not a chunk's.
    final class Chunk: ObjectSink {
        let writer: any ObjectWriter
        private(set) var gate: QueryGate! = nil

        init(executor: QueryExecutor, writer: any ObjectWriter, cancellation: RunCancellation?) {
            self.writer = writer
            gate = QueryGate(executor, into: ChunkWriterSink(writer), isCancelled: cancellation?.check)
        }

        func exportDidBegin(_ header: ExportHeader) throws {}

        @inline(__always)
        func consume(_ object: HealthObject) throws { try gate.consume(object) }
    }

    /// Writes objects to a chunk's writer, without a header.
    final class ChunkWriterSink: ObjectSink {
        let writer: any ObjectWriter
        init(_ writer: any ObjectWriter) { self.writer = writer }
        func exportDidBegin(_ header: ExportHeader) throws {}
        @inline(__always)
        func consume(_ object: HealthObject) throws { try writer.write(object) }
    }

    /// Reads `reader` into `output`; returns the read's summary and the objects written.
    func read(
        _ reader: ExportReader, into output: WriterSink, executor: QueryExecutor, jobs: Int, reporter: RunReporter,
        cancellation: RunCancellation?, chunkBytes: Int
    ) throws -> (ExportReader.Summary, Int) {
        let gate = QueryGate(executor, into: output, isCancelled: cancellation?.check)
        var merged = 0
        let makeChunkWriter = self.makeChunkWriter
        let summary = try reader.readInParallel(
            into: gate, jobs: jobs,
            makeChunkSink: { Chunk(executor: executor, writer: makeChunkWriter(), cancellation: cancellation) },
            merge: { chunk in
                merged += chunk.gate.admitted
                try append(chunk.writer)
            },
            warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: gate.admitted + merged))
            },
            types: executor.typesToRead, chunkBytes: chunkBytes)
        return (summary, gate.admitted + merged)
    }
}
