#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// Writes MCP's stdio messages to a file descriptor whole, one after another, each followed
/// by its newline.
///
/// Every message goes through one serial dispatch queue, in the order `write` was called, and
/// the queue writes it to its last byte (partial writes and `EINTR` retried; `EAGAIN` on a
/// non-blocking descriptor waits in `poll(2)`) before it takes the next. So two messages' bytes
/// never mix, however slowly the client reads. The SDK's `StdioTransport` sleeps in the middle
/// of a message when the pipe is full, on an actor that lets the next `send` in meanwhile:
/// concurrent answers came out interleaved (40 lines in 41 not JSON).
///
/// The blocking writes run on that queue, never on Swift's cooperative threads, and `write`
/// returns once its message is written, so a slow client slows the answers down instead of
/// filling this process's memory.
///
/// A write that fails (`EPIPE`: the client is gone) breaks the writer: `onFailure` runs once,
/// and every later `write` throws at once. The caller ignores `SIGPIPE` (healthport does), or
/// the process dies of it instead.
final class MessageWriter: @unchecked Sendable {
    let descriptor: Int32
    private let queue = DispatchQueue(label: "healthport.mcp.write")
    /// The error that broke the writer. Confined to `queue`.
    private var failure: SystemCallError?
    private let onFailure: @Sendable (SystemCallError) -> Void

    init(descriptor: Int32, onFailure: @escaping @Sendable (SystemCallError) -> Void = { _ in }) {
        self.descriptor = descriptor
        self.onFailure = onFailure
    }

    /// Writes `message` and a newline; returns once both are written.
    ///
    /// - Throws: `SystemCallError` when this or an earlier write failed.
    func write(_ message: Data) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(with: Result { try self.writeNow(message) })
            }
        }
    }

    /// Returns once every message given to `write` before has been written (or failed).
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// On `queue`.
    private func writeNow(_ message: Data) throws {
        if let failure { throw failure }
        do {
            try message.withUnsafeBytes { try writeAll($0) }
            try withUnsafeBytes(of: UInt8(ascii: "\n")) { try writeAll($0) }
        } catch let error as SystemCallError {
            failure = error
            onFailure(error)
            throw error
        }
    }

    /// On `queue`: every byte of `bytes`, or an error.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EIO
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
            default:
                throw SystemCallError(code)
            }
        }
    }
}

/// `write(2)` (a plain `write` inside `MessageWriter` would name its own method).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
