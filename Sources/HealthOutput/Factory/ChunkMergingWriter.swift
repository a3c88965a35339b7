import HealthModel

/// A writer whose output can be put together from chunks written on other threads, in
/// document order: a parallel read parses chunks of the export at once, each into a writer of
/// its own (`Chunk`), then appends them here one after the other.
///
/// NDJSON and CSV into a folder can; JSON (its separators), export.xml and a single CSV table
/// cannot, and read on one thread.
public protocol ChunkMergingWriter: ObjectWriter, SendableMetatype {
    associatedtype Chunk: ObjectWriter & SendableMetatype
    /// A writer for one chunk, writing to memory. Static: it is called on the worker threads,
    /// and captures nothing of the writer chunks are merged into but a value, the local times
    /// it gives (`localTimeSetting`), of which it makes its own.
    static func makeChunkWriter(localTimes: LocalTimeSetting) -> Chunk
    /// Writes what a chunk's writer collected, as if its objects had been written here.
    func append(_ chunk: Chunk) throws
    /// The local times this writer gives, for its chunks to give the same.
    var localTimeSetting: LocalTimeSetting { get }
}

extension NDJSONWriter: ChunkMergingWriter {
    public static func makeChunkWriter(localTimes: LocalTimeSetting) -> NDJSONWriter { forChunk(localTimes: localTimes) }
    public var localTimeSetting: LocalTimeSetting { localTimes?.setting ?? .none }
}

extension CSVWriter: ChunkMergingWriter {
    public static func makeChunkWriter(localTimes: LocalTimeSetting) -> CSVWriter {
        let writer = forChunk()
        writer.localTimes = localTimes.makeLocalTimes()
        return writer
    }
    public var localTimeSetting: LocalTimeSetting { localTimes?.setting ?? .none }
}
