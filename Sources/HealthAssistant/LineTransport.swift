#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import MCP

/// MCP's stdio transport (one JSON-RPC message per line) over two file descriptors, standard
/// input and output by default: what `healthport mcp` serves on.
///
/// healthport has its own because the SDK's `StdioTransport` (swift-sdk 0.12.1) has two faults
/// a client can meet:
/// - it searches its whole pending buffer for a newline again after every 4 KiB read, so a long
///   line takes quadratic time (release build, this project's machine: 1 MB 3.1 s, 4 MB 43 s,
///   8 MB 161 s; now 0.33, 0.36 and 0.42 s, most of it the server's wait for calls in flight at
///   the end of its input) during which nothing is served, and a line without end grows its
///   buffer without bound;
/// - it writes from an actor that sleeps in the middle of a message when the pipe is full,
///   letting another answer's bytes in: concurrent answers to a slow client came out mixed.
///
/// Here reading is linear (`LineSplitter`: only new bytes are searched) and pulled by the
/// server (`LineReader`); a line that is not one JSON value, or a request whose id the SDK
/// cannot hold, is answered with a JSON-RPC error here (`MessageScreen`); a message longer than `maximumMessageLength` is dropped as it comes
/// and answered with a JSON-RPC error (`OverlongMessageReply`), and serving goes on. Writing is
/// serialized (`MessageWriter`): each message whole, in the order sent. When the client is gone
/// (a write fails with `EPIPE`), reading stops too, so the server ends quietly. The transport
/// never logs: its logger discards everything, so nothing reaches standard error.
///
/// For example:
///
/// ```swift
/// let server = Server(name: "healthport", version: "1.0")
/// try await server.start(transport: LineTransport())
/// await server.waitUntilCompleted()
/// ```
public actor LineTransport: Transport {
    /// The longest message read, in bytes (newline excluded): 32 MiB, far above any request
    /// healthport's tools take, and low enough that a hostile client cannot grow the server.
    /// Documented in healthport-mcp(1).
    public static let defaultMaximumMessageLength = 32 * 1024 * 1024

    public nonisolated let logger = Logger(label: "healthport.mcp.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The longest message read; a longer one is answered with an error and dropped.
    public nonisolated let maximumMessageLength: Int
    let reader: LineReader
    let writer: MessageWriter
    private let messages: AsyncThrowingStream<Data, any Error>

    /// - Parameters:
    ///   - input: Where messages are read (left blocking or not, as it is).
    ///   - output: Where messages are written; a closed pipe (`EPIPE`) ends the connection, so
    ///     the process must ignore `SIGPIPE`.
    ///   - maximumMessageLength: The longest message read, in bytes.
    public init(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
        maximumMessageLength: Int = LineTransport.defaultMaximumMessageLength
    ) {
        let reader = LineReader(descriptor: input, maximumLineLength: maximumMessageLength)
        let writer = MessageWriter(descriptor: output) { _ in reader.stop() }
        self.reader = reader
        self.writer = writer
        self.maximumMessageLength = maximumMessageLength
        self.messages = AsyncThrowingStream {
            while let piece = try await reader.next() {
                switch piece {
                case .line(let message):
                    if let refusal = MessageScreen.refusal(of: message) {
                        try? await writer.write(refusal)
                        continue
                    }
                    return message
                case .overLong(let prefix):
                    try? await writer.write(OverlongMessageReply.message(prefix: prefix, maximumLength: maximumMessageLength))
                }
            }
            return nil
        }
    }

    /// Nothing to do: reading starts when the server asks for the first message.
    public func connect() async throws {}

    /// Stops reading, and returns once every message sent before has been written (or the
    /// client has gone): a server that stops never cuts its last answer.
    public func disconnect() async {
        reader.stop()
        await writer.drain()
    }

    /// Writes `message` whole, then a newline; returns once it is written.
    ///
    /// - Throws: `SystemCallError` once the output has failed (the client is gone).
    public func send(_ message: Data) async throws {
        try await writer.write(message)
    }

    /// The messages read, in order; ends with the input, or at `disconnect`.
    public func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }

    /// Bytes of input searched for a newline so far: each byte read, once (tests check
    /// that reading stays linear).
    nonisolated var bytesScanned: Int { reader.bytesScanned }
}
