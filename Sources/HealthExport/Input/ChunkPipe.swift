import Foundation

/// Hands inflated chunks of a zip entry from an inflating thread to the parsing thread, at
/// most `capacity` chunks ahead, so that inflate and parse overlap on two cores instead of
/// adding up (issue 11; `Benchmarks/run.sh`, task `zip`). Memory: `capacity` chunks.
///
/// The producer calls `put` for each chunk and `finish` once; the consumer calls `next` until
/// it returns `nil`. A consumer that stops early (a closed pipe, a bad element) calls `cancel`,
/// after which `put` throws `Cancelled` and the producer winds down.
final class ChunkPipe: @unchecked Sendable {
    struct Cancelled: Error {}

    private let condition = NSCondition()
    private var chunks: [Data] = []
    private var head = 0
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var producerDone = false
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues a chunk, waiting while `capacity` chunks are queued.
    func put(_ chunk: Data) throws {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count - head >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        if head > 64 {
            chunks.removeFirst(head)
            head = 0
        }
        chunks.append(chunk)
        condition.broadcast()
    }

    /// Ends the stream, with the producer's error if it failed.
    func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        producerDone = true
        if let error, !(error is Cancelled) { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk; `nil` at the end. Rethrows the producer's error after the chunks before it.
    func next() throws -> Data? {
        condition.lock()
        defer { condition.unlock() }
        while head == chunks.count && !finished { condition.wait() }
        if head < chunks.count {
            let chunk = chunks[head]
            chunks[head] = Data()
            head += 1
            condition.broadcast()
            return chunk
        }
        if let failure { throw failure }
        return nil
    }

    /// Tells the producer to stop, and waits until it has (so the archive it reads is free).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !producerDone { condition.wait() }
        condition.unlock()
    }
}

extension ChunkPipe {
    /// A pipe filled by `produce` on a thread of its own (named `name`), which ends the pipe
    /// with `produce`'s error if it fails.
    static func filled(
        by produce: @escaping (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void, name: String
    ) -> ChunkPipe {
        let pipe = ChunkPipe(capacity: 8)
        nonisolated(unsafe) let produce = produce
        let producer = Thread {
            do {
                try produce { try pipe.put(Data($0)) }
                pipe.finish(nil)
            } catch {
                pipe.finish(error)
            }
        }
        producer.name = name
        producer.start()
        return pipe
    }
}

/// Reads a `ChunkPipe` like a file: into any buffer, across its chunks.
final class PipeReader {
    private let pipe: ChunkPipe
    private var current = Data()
    private var position = 0

    init(_ pipe: ChunkPipe) {
        self.pipe = pipe
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while position == current.count {
            guard let next = try pipe.next() else { return 0 }
            current = next
            position = 0
        }
        let n = min(buffer.count, current.count - position)
        current.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + position, byteCount: n)
        }
        position += n
        return n
    }
}
