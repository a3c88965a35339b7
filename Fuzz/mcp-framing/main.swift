import Foundation
import FuzzSupport
@testable import HealthAssistant

/// MCP's stdio framing (`LineSplitter`, `OverlongMessageReply`) on any bytes, cut into pieces
/// the input chooses: the splitter must deliver exactly the lines a plain split on newlines
/// gives (empty lines skipped, a last line without newline kept, a line over the bound
/// reported once by its first bytes and never held), hold no more than the bound, and search
/// each byte once; the answer to an over-long line must be JSON-RPC, with the id the line's
/// JSON has when it names one.
///
/// The first three bytes choose the bound (1 to 64 bytes, or 1 MiB), the length of an
/// over-long line's kept prefix, and the seed of the piece sizes (0 to 96 bytes).
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzDriver.bytes(data, count)
    guard input.count >= 3 else { return 0 }
    let maximum = input[0] < 200 ? 1 + Int(input[0]) % 64 : 1 << 20
    let prefixLength = 1 + Int(input[1]) % 80
    var state = UInt32(input[2]) | 0x9E37_0000
    let stream = Array(input.dropFirst(3))

    var splitter = LineSplitter(maximumLineLength: maximum, prefixLength: prefixLength)
    var pieces: [LineSplitter.Piece] = []
    var offset = 0
    while offset < stream.count {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        let size = min(Int(state % 97), stream.count - offset)
        splitter.append(Array(stream[offset..<offset + size])) { pieces.append($0) }
        if splitter.bufferedCount > maximum { fatalError("the splitter holds \(splitter.bufferedCount) bytes over a bound of \(maximum)") }
        offset += size
    }
    splitter.finish { pieces.append($0) }
    if splitter.bytesScanned != stream.count {
        fatalError("\(splitter.bytesScanned) bytes searched for \(stream.count) read")
    }

    let expected = reference(stream, maximum: maximum, prefixLength: min(prefixLength, maximum))
    if pieces != expected {
        fatalError("the splitter gives \(pieces.count) pieces, a plain split \(expected.count): \(pieces) against \(expected)")
    }

    for piece in pieces {
        guard case .overLong(let prefix) = piece else { continue }
        checkReply(to: prefix, whole: nil)
    }
    // The id scan on the whole stream as one message, against a JSON parser's reading.
    checkReply(to: Data(stream), whole: Data(stream))
    return 0
}

/// The pieces a plain split gives.
func reference(_ bytes: [UInt8], maximum: Int, prefixLength: Int) -> [LineSplitter.Piece] {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map { line in
        line.count <= maximum ? .line(Data(line)) : .overLong(prefix: Data(line.prefix(prefixLength)))
    }
}

/// The answer to an over-long line beginning with `prefix` is one JSON-RPC error object; when
/// `whole` is a JSON object with one top-level id, an id found is that id.
func checkReply(to prefix: Data, whole: Data?) {
    // The screen before the SDK (`MessageScreen`): its answer, when it gives one, is one
    // JSON-RPC error with the id null, on one line.
    if let whole, let refusal = MessageScreen.refusal(of: whole) {
        guard !refusal.contains(0x0A), let object = (try? JSONSerialization.jsonObject(with: refusal)) as? [String: Any],
            object["id"] is NSNull, object["error"] is [String: Any]
        else { fatalError("the screen's answer is not one JSON-RPC error: \(String(decoding: refusal, as: UTF8.self))") }
    }
    let reply = OverlongMessageReply.message(prefix: prefix, maximumLength: 100)
    if reply.contains(0x0A) { fatalError("a reply with a newline: \(String(decoding: reply, as: UTF8.self))") }
    guard let object = (try? JSONSerialization.jsonObject(with: reply)) as? [String: Any],
        (object["error"] as? [String: Any])?["code"] as? Int == OverlongMessageReply.code
    else {
        fatalError("not a JSON-RPC error: \(String(decoding: reply, as: UTF8.self))")
    }
    guard let whole, let found = RequestIdentifier.text(in: prefix) else { return }
    guard let parsed = (try? JSONSerialization.jsonObject(with: whole)) as? [String: Any] else { return }
    // A repeated key is read differently by different parsers: only one `"id"` is compared.
    if String(decoding: whole, as: UTF8.self).components(separatedBy: "\"id\"").count != 2 { return }
    let foundValue = try? JSONSerialization.jsonObject(with: Data(found.utf8), options: .fragmentsAllowed)
    guard let actual = parsed["id"], let foundValue, same(actual, foundValue) else {
        fatalError("id \(found) found, the JSON's is \(String(describing: parsed["id"]))")
    }
}

/// Two ids as JSONSerialization reads them (a string, or a number).
func same(_ a: Any, _ b: Any) -> Bool {
    if let a = a as? String, let b = b as? String { return a == b }
    if let a = a as? NSNumber, let b = b as? NSNumber { return a == b }
    return false
}

FuzzDriver.run(test)
