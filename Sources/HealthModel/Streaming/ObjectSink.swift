/// Where objects stream: an export's header once, then every object in document order.
///
/// An export reader, healthport's NDJSON and the store all stream into one, so that whatever
/// consumes objects (a writer, the store's import, a statistics collector) does not know where
/// they come from. A source keeps nothing after handing an object over, so a sink that does not
/// keep them either runs in memory that does not grow with the export.
///
/// Errors thrown by the sink stop the read and are rethrown unchanged by the source (a closed
/// pipe, a full disk, a cancelled run).
///
/// A sink's type may be named on any thread (`SendableMetatype`): a parallel read makes one sink
/// per chunk on its worker threads.
public protocol ObjectSink: AnyObject, SendableMetatype {
    /// Called once, before the first object (or at the end when there is none).
    func exportDidBegin(_ header: ExportHeader) throws
    /// Called for each top-level object, with its derived uuid set.
    func consume(_ object: HealthObject) throws
}

/// Something that streams its objects into a sink, once: an export being read, or the store.
///
/// The store's import takes one of these rather than a reader, so that the store does not link
/// the XML parser; how the source reports warnings and progress is bound when it is made.
public protocol ObjectSource: AnyObject {
    /// Streams the header, then every object, into `sink`.
    func stream(into sink: any ObjectSink) throws
}

/// A source that can read on several threads: each chunk of the input goes to a sink of its own,
/// made by `makeChunkSink` on a worker thread, and each chunk's sink, once its chunk is read,
/// to `merge` on the calling thread, in document order. The header, and every object when the
/// input cannot be cut into chunks (standard input, one thread), go to `sink`.
///
/// The store's import takes one so that parsing, the uuid derivation and preparing rows, most of
/// an import's work, use every core, as a conversion does (`Benchmarks/store.sh`).
public protocol ChunkedObjectSource: ObjectSource {
    func stream<Chunk: ObjectSink>(
        into sink: any ObjectSink, makeChunkSink: @escaping @Sendable () -> Chunk, merge: @escaping (Chunk) throws -> Void
    ) throws
}
