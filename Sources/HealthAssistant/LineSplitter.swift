#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Cuts a byte stream into MCP's stdio messages: one JSON-RPC message per line, a line being
/// the bytes before each newline.
///
/// Bytes arrive in pieces of any size (what `read(2)` returns). Only the new bytes are searched
/// for a newline (`memchr`), and the bytes of a line not yet ended are kept in one buffer that
/// grows geometrically, so a line of n bytes costs O(n) however it is cut: each byte is scanned
/// once (`bytesScanned` counts them) and copied at most twice. The SDK's `StdioTransport`
/// searches the whole pending buffer again after every 4 KiB read, which made a 4 MB line take
/// 21 s; see `LineTransport`.
///
/// A line longer than `maximumLineLength` is never held whole: once it passes the bound, its
/// bytes are dropped up to its newline, and it is reported once, as `.overLong`, with its first
/// bytes (for the request's id). Empty lines are skipped, as the SDK skips them; a last line
/// without a newline is delivered at `finish`.
///
/// For example:
///
/// ```swift
/// var splitter = LineSplitter(maximumLineLength: 8)
/// var pieces: [LineSplitter.Piece] = []
/// splitter.append(Array("{}\n\n{\"a\"".utf8)) { pieces.append($0) }   // .line("{}")
/// splitter.append(Array(":1}\n0123456789\n".utf8)) { pieces.append($0) } // .line("{\"a\":1}"), .overLong
/// splitter.finish { pieces.append($0) }                               // nothing left
/// ```
struct LineSplitter {
    /// One message, or the report of a line over the bound.
    enum Piece: Equatable {
        /// A line's bytes, without its newline; never empty.
        case line(Data)
        /// A line longer than `maximumLineLength`: its first bytes (at most `prefixLength`;
        /// the rest was dropped unread).
        case overLong(prefix: Data)
    }

    /// The longest line delivered, in bytes, newline excluded.
    let maximumLineLength: Int
    /// How many of an over-long line's first bytes its report keeps.
    let prefixLength: Int

    /// The current line's bytes so far (never more than `maximumLineLength`).
    private var pending: [UInt8] = []
    /// The current line passed the bound: its bytes are dropped up to its newline.
    private var discarding = false
    /// Bytes searched for a newline so far: each byte given to `append` exactly once.
    private(set) var bytesScanned = 0

    /// Bytes of the current line held (never more than `maximumLineLength`).
    var bufferedCount: Int { pending.count }

    /// Pending buffers larger than this are released after their line, not kept for the next:
    /// one large message must not pin its size for the rest of the session.
    private static let retainedCapacity = 1 << 20

    init(maximumLineLength: Int, prefixLength: Int = 64 * 1024) {
        precondition(maximumLineLength > 0, "a message bound must allow some bytes")
        self.maximumLineLength = maximumLineLength
        self.prefixLength = min(prefixLength, maximumLineLength)
    }

    /// Takes the next bytes of the stream and hands over every piece they complete, in order.
    ///
    /// - Complexity: O(`bytes.count`), amortized over the line's growth.
    mutating func append(_ bytes: UnsafeRawBufferPointer, _ deliver: (Piece) -> Void) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0
        while start < bytes.count {
            let remaining = bytes.count - start
            let found = memchr(base + start, 0x0A, remaining)
            let end = found.map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
            bytesScanned += (found == nil ? remaining : end - start + 1)
            let part = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            guard found != nil else {
                take(part, deliver)
                return
            }
            if pending.isEmpty && !discarding && !part.isEmpty && part.count <= maximumLineLength {
                // A whole line inside this piece (the usual case): copied once.
                deliver(.line(Data(part)))
            } else {
                take(part, deliver)
                endLine(deliver)
            }
            start = end + 1
        }
    }

    /// `append` for bytes in an array.
    mutating func append(_ bytes: [UInt8], _ deliver: (Piece) -> Void) {
        bytes.withUnsafeBytes { append($0, deliver) }
    }

    /// The end of the stream: a last line without a newline is delivered.
    mutating func finish(_ deliver: (Piece) -> Void) {
        endLine(deliver)
    }

    /// Part of the current line, newline excluded.
    private mutating func take(_ part: UnsafeRawBufferPointer, _ deliver: (Piece) -> Void) {
        guard !discarding, !part.isEmpty else { return }
        if pending.count + part.count <= maximumLineLength {
            pending.append(contentsOf: part)
            return
        }
        // Over the bound: report it now (an endless line must not wait for its end), keep
        // nothing, and drop the rest of the line as it comes.
        var prefix = Data(pending.prefix(prefixLength))
        if prefix.count < prefixLength {
            prefix.append(contentsOf: part.prefix(prefixLength - prefix.count))
        }
        deliver(.overLong(prefix: prefix))
        discarding = true
        pending = []
    }

    /// The newline (or the end of the stream): the line is complete.
    private mutating func endLine(_ deliver: (Piece) -> Void) {
        if discarding {
            discarding = false
            return
        }
        guard !pending.isEmpty else { return }
        deliver(.line(Data(pending)))
        pending.removeAll(keepingCapacity: pending.capacity <= Self.retainedCapacity)
    }
}
