#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// Reads MCP's stdio messages from a file descriptor, one when asked (`next`), through a
/// `LineSplitter`.
///
/// Reading is pulled, not pushed: nothing is read until the server asks for the next message,
/// so a client that writes faster than the server parses fills the pipe, not this process's
/// memory. The blocking `poll(2)` and `read(2)` run on a serial dispatch queue of their own,
/// never on Swift's cooperative threads (two of them on a two-core machine). `stop` wakes a
/// waiting read through a pipe of its own, so a server can stop while the client is silent.
///
/// The descriptor is left as it was given (the SDK's transport makes standard input
/// non-blocking; a non-blocking descriptor works here too, since every read follows a `poll`).
final class LineReader: @unchecked Sendable {
    let descriptor: Int32
    /// Confined to `queue`.
    private var splitter: LineSplitter
    /// Pieces split off and not yet handed over, from `readyIndex` on. Confined to `queue`.
    private var ready: [LineSplitter.Piece] = []
    private var readyIndex = 0
    /// The input ended or failed. Confined to `queue`.
    private var ended = false
    private let buffer: UnsafeMutableRawBufferPointer
    private let queue = DispatchQueue(label: "healthport.mcp.read")
    /// `stop` writes a byte here, so that a waiting `poll` wakes.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopLock = NSLock()
    private var stopped = false
    /// `splitter.bytesScanned` as of the last read, readable from any thread.
    private let countLock = NSLock()
    private var scanned = 0

    /// Bytes per `read(2)`.
    static let chunkSize = 64 * 1024

    init(descriptor: Int32, maximumLineLength: Int) {
        self.descriptor = descriptor
        self.splitter = LineSplitter(maximumLineLength: maximumLineLength)
        self.buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
        var ends: [Int32] = [-1, -1]
        // Without the pipe, `stop` cannot wake a read; reading then ends with the input.
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
    }

    deinit {
        buffer.deallocate()
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Bytes searched for a newline so far (each byte read, once).
    var bytesScanned: Int { countLock.withLock { scanned } }

    /// The next message or over-long report; `nil` once the input has ended or `stop` was
    /// called (or the calling task is cancelled).
    ///
    /// - Throws: `SystemCallError` when reading fails (the input is then over).
    func next() async throws -> LineSplitter.Piece? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result { try self.nextWaiting() })
                }
            }
        } onCancel: {
            stop()
        }
    }

    /// Wakes a waiting `next` and ends reading: later calls return `nil`.
    func stop() {
        let first = stopLock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// On `queue`: blocks until a piece is ready, the input ends, or `stop`.
    private func nextWaiting() throws -> LineSplitter.Piece? {
        while true {
            if stopLock.withLock({ stopped }) { return nil }
            if readyIndex < ready.count {
                defer { readyIndex += 1 }
                return ready[readyIndex]
            }
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            if ended { return nil }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            // A descriptor of -1 (no wake pipe) is ignored by `poll`.
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                ended = true
                throw SystemCallError(errno)
            }
            if descriptors[1].revents != 0 { return nil }
            if descriptors[0].revents == 0 { continue }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                ended = true
                throw SystemCallError(errno)
            }
            if count == 0 {
                ended = true
                splitter.finish { ready.append($0) }
            } else {
                splitter.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { ready.append($0) }
                let total = splitter.bytesScanned
                countLock.withLock { scanned = total }
            }
        }
    }
}

/// A failed system call's `errno`, as an error.
struct SystemCallError: Error, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
