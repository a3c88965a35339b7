import Testing
@testable import HealthExport

/// The pre-filter gives the same bytes, replacement count and first replacement offset however
/// the input is cut into chunks: chunks with nothing to replace are passed on where they lie,
/// the others are copied and repaired, and sequences cut at a chunk's end are carried over.
@Suite struct XMLPreFilterTests {
    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"

    static func filtered(_ input: [UInt8], chunkSize: Int) throws -> (bytes: [UInt8], replaced: Int, first: Int64?) {
        var filter = XMLPreFilter()
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(input.count, offset + chunkSize)
            let isLast = end == input.count
            try input[offset..<end].withUnsafeBytes { chunk in
                try filter.process(chunk, isLast: isLast) { ready, _ in output.append(contentsOf: ready) }
            }
            offset = end
        } while offset < input.count
        return (output, filter.replacedCount, filter.firstReplacementOffset)
    }

    @Test(arguments: [
        // Nothing to replace, with entities and multi-byte characters to pass through.
        Array(" <Record sourceName=\"Apple Watch de Nicolás\" device=\"&lt;&lt;HKDevice&gt;\" value=\"72\"/>\n".utf8),
        // A control character, a character reference XML forbids, invalid and cut UTF-8, an
        // encoded surrogate and U+FFFF.
        Array(" <Record sourceName=\"a\u{01}b\" value=\"&#1;&#x1F;&#65;\"/>\n".utf8) + [0x20, 0xC3, 0x28, 0x20, 0xED, 0xA0, 0x80, 0x20, 0xEF, 0xBF, 0xBF, 0x20, 0xF0, 0x9F, 0x98, 0x80, 0x0A],
        Array(" <Record value=\"é\"/>\n".utf8) + [0x20, 0xE2, 0x82],
    ])
    func chunkingDoesNotChangeTheOutput(body: [UInt8]) throws {
        let input = Array(Self.head.utf8) + body + body + Array("</HealthData>\n".utf8)
        let whole = try Self.filtered(input, chunkSize: input.count)
        #expect(whole.bytes.count == input.count)
        for size in [1, 2, 3, 5, 7, 8, 13, 31, 64, 100] {
            let chunked = try Self.filtered(input, chunkSize: size)
            #expect(chunked.bytes == whole.bytes, "chunks of \(size)")
            #expect(chunked.replaced == whole.replaced, "chunks of \(size)")
            #expect(chunked.first == whole.first, "chunks of \(size)")
        }
    }

    @Test func replacementsAreCountedAndLocated() throws {
        let body = Array(" <Record sourceName=\"a\u{01}b\"/>\n".utf8)
        let input = Array(Self.head.utf8) + body + [0xFF, 0x0A] + Array("</HealthData>\n".utf8)
        let result = try Self.filtered(input, chunkSize: 16)
        #expect(result.replaced == 2)
        #expect(result.first == Int64(try #require(input.firstIndex(of: 0x01))))
        #expect(!result.bytes.contains(0x01) && !result.bytes.contains(0xFF))
        // The input itself is never written to.
        #expect(input.contains(0x01) && input.contains(0xFF))
    }
}
