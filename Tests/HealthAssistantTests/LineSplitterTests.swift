import Foundation
import Testing

@testable import HealthAssistant

/// MCP's stdio framing: lines cut out of a byte stream however it arrives, each byte searched
/// once, and no line held past the bound.
@Suite struct LineSplitterTests {
    /// Every piece `bytes` gives when it arrives `pieceSize` bytes at a time.
    static func split(_ bytes: [UInt8], pieceSize: Int, maximum: Int = 1 << 30, prefixLength: Int = 64 * 1024)
        -> (pieces: [LineSplitter.Piece], splitter: LineSplitter)
    {
        var splitter = LineSplitter(maximumLineLength: maximum, prefixLength: prefixLength)
        var pieces: [LineSplitter.Piece] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + pieceSize, bytes.count)
            splitter.append(Array(bytes[offset..<end])) { pieces.append($0) }
            offset = end
        }
        splitter.finish { pieces.append($0) }
        return (pieces, splitter)
    }

    /// A JSON-RPC request of `length` bytes (a `tools/call` with one long argument).
    static func request(id: Int, length: Int) -> [UInt8] {
        let head = Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"describe","arguments":{"pad":""#.utf8)
        let tail = Array(#""}}}"#.utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: length - head.count - tail.count) + tail
    }

    /// Audit item 10: the SDK searched its whole buffer again after every 4 KiB read (a 4 MB
    /// line took 21 s). Linear, without a clock: 8 MiB in the SDK's 4 KiB pieces are searched
    /// byte by byte exactly once (quadratic searching would count about 8 GiB).
    @Test func aMultiMegabyteLineIsSearchedOnceByteByByte() {
        let line = Self.request(id: 1, length: 8 << 20)
        let bytes = line + [0x0A] + Self.request(id: 2, length: 200) + [0x0A]
        let (pieces, splitter) = Self.split(bytes, pieceSize: 4096)
        #expect(splitter.bytesScanned == bytes.count)
        #expect(pieces.count == 2)
        #expect(pieces.first == .line(Data(line)))
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096, 65536])
    func theLinesAreAPlainSplitOnNewlinesHoweverTheBytesArrive(pieceSize: Int) {
        let messages = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "{ not JSON", #"{"id":2}"# + "\r", String(repeating: "y", count: 5000), "é\u{1F600}",
        ]
        // Empty lines are skipped; the last line has no newline and is still delivered.
        let text = "\n" + messages.joined(separator: "\n\n") + "\n\n\n" + "last"
        let (pieces, splitter) = Self.split(Array(text.utf8), pieceSize: pieceSize)
        #expect(pieces == (messages + ["last"]).map { .line(Data($0.utf8)) })
        #expect(splitter.bytesScanned == text.utf8.count)
        #expect(splitter.bufferedCount == 0)
    }

    /// A line over the bound is reported once, with its first bytes, as soon as it passes the
    /// bound (an endless line is answered before it ends); its bytes are never held; the
    /// next line is read as usual.
    @Test(arguments: [1, 5, 99, 100, 101, 4096])
    func aLineOverTheBoundIsReportedOnceAndNeverHeld(pieceSize: Int) {
        let long = Self.request(id: 3, length: 10_000)
        let exact = [UInt8](repeating: UInt8(ascii: "z"), count: 100)
        let ping = Array(#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#.utf8)
        let bytes = long + [0x0A] + exact + [0x0A] + ping + [0x0A] + long
        var splitter = LineSplitter(maximumLineLength: 100, prefixLength: 40)
        var pieces: [LineSplitter.Piece] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + pieceSize, bytes.count)
            splitter.append(Array(bytes[offset..<end])) { pieces.append($0) }
            #expect(splitter.bufferedCount <= 100)
            offset = end
        }
        // The endless last line is reported before the input ends.
        #expect(pieces.last == .overLong(prefix: Data(long.prefix(40))))
        splitter.finish { pieces.append($0) }
        #expect(pieces == [
            .overLong(prefix: Data(long.prefix(40))), .line(Data(exact)), .line(Data(ping)),
            .overLong(prefix: Data(long.prefix(40))),
        ])
        #expect(splitter.bytesScanned == bytes.count)
    }
}
