import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthStore

/// An export into the store, all or nothing: what is new is added, what disappeared becomes a
/// deleted object (`healthport import`). The owner's store holds everything; policies apply
/// when it is read.
public struct ImportRun: Sendable {
    public var export: String
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var store: String
    /// Import even an export older than the last import, or one that shares little with the
    /// store.
    public var force = false
    /// Where to write the store's anchor after the import (atomically, mode 0600): the owner's
    /// anchor, every type included, from which `changes --store --anchor FILE` reports what
    /// later imports bring.
    public var anchorOutput: String? = nil

    public init(export: String, store: String) {
        self.export = export
        self.store = store
    }

    public struct Summary: Sendable {
        public var result: HealthStore.ImportSummary
        public var warnings: [RepeatedWarning]
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping {
            try OutputInputGuard.check(outputs: [store], inputs: [export])
            try OutputInputGuard.check(outputs: [anchorOutput], inputs: [export, store])
            let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
            // A new store has no file at its path until its first import commits: one that
            // fails (a refused export, a full disk) or is cancelled leaves nothing, as every
            // output (`HealthStore.openForWriting`). Nothing is removed here: a file at the path
            // may be another process's store by now.
            // The anchor's file is made before the import, so that one that cannot be made (no
            // such folder) fails the run before the store changes; it is committed after.
            let anchorFile = try anchorOutput.map { try AtomicFile(destination: $0) }
            let opened = try HealthStore.openForWriting(at: store)
            reporter.storeOpened(opened)
            let summary = try importInto(opened, from: reader, reporter: reporter, cancellation: cancellation)
            if let anchorFile {
                anchorFile.buffer.appendRaw(summary.result.anchor.token + "\n")
                try anchorFile.commit()
            }
            return summary
        }
    }

    private func importInto(
        _ healthStore: HealthStore, from reader: ExportReader, reporter: RunReporter, cancellation: RunCancellation?
    ) throws -> Summary {
        let objects = ObjectCount()
        // The owner's store holds everything: the owner's query, which admits every object.
        let source = ExportObjectSource(
            reader, query: .everything, warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: objects.value))
            })
        // A regular file (an export.xml, a zip) is known again by its digest: the same file
        // imported again is not read (`HealthStore.ImportedFile`).
        var file: HealthStore.ImportedFile? = nil
        if export != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: export),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = (attributes[.size] as? NSNumber)?.int64Value
        {
            let path = export
            file = HealthStore.ImportedFile(byteCount: size, digest: { try ExportArrival.digest(of: path) })
        }
        // The same file again is answered without a read, where a cancelled run would stop.
        if let cancellation, cancellation.isCancelled { throw CancellationError() }
        let result = try healthStore.importObjects(
            from: CancellableSource(source, cancellation: cancellation),
            inputName: export == "-" ? "-" : URL(fileURLWithPath: export).lastPathComponent, force: force, input: file,
            objectsRead: { objects.value = $0 })
        return Summary(result: result, warnings: source.summary?.repeatedWarnings(.everything) ?? [])
    }
}

/// The count the reading thread updates and progress shows.
private final class ObjectCount: @unchecked Sendable {
    // Written by the reading thread, read by the same thread's progress callback.
    var value = 0
}

/// A source that stops (`CancellationError`) when its run is cancelled; the import then rolls
/// back and the store stays at its previous anchor.
private final class CancellableSource: ObjectSource {
    let source: any ObjectSource
    let cancellation: RunCancellation?

    init(_ source: any ObjectSource, cancellation: RunCancellation?) {
        self.source = source
        self.cancellation = cancellation
    }

    func stream(into sink: any ObjectSink) throws {
        guard let cancellation else { return try source.stream(into: sink) }
        try source.stream(into: CancellingSink(sink, cancellation: cancellation))
    }
}

/// The import reads on every core when its source can (`ChunkedObjectSource`); a cancelled run
/// stops at the next chunk.
extension CancellableSource: ChunkedObjectSource {
    func stream<Chunk: ObjectSink>(
        into sink: any ObjectSink, makeChunkSink: @escaping @Sendable () -> Chunk, merge: @escaping (Chunk) throws -> Void
    ) throws {
        guard let chunked = source as? any ChunkedObjectSource else { return try stream(into: sink) }
        guard let cancellation else { return try chunked.stream(into: sink, makeChunkSink: makeChunkSink, merge: merge) }
        try chunked.stream(
            into: CancellingSink(sink, cancellation: cancellation), makeChunkSink: makeChunkSink,
            merge: { chunk in
                if cancellation.isCancelled { throw CancellationError() }
                try merge(chunk)
            })
    }

    final class CancellingSink: ObjectSink {
        let sink: any ObjectSink
        let cancellation: RunCancellation
        var count = 0
        init(_ sink: any ObjectSink, cancellation: RunCancellation) {
            self.sink = sink
            self.cancellation = cancellation
        }
        func exportDidBegin(_ header: ExportHeader) throws { try sink.exportDidBegin(header) }
        func consume(_ object: HealthObject) throws {
            count &+= 1
            if count & 1023 == 0, cancellation.isCancelled { throw CancellationError() }
            try sink.consume(object)
        }
    }
}
