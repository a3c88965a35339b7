/// Cuts an export document into chunks that end between two top-level elements, so that each
/// can be parsed on its own (after a copy of the prolog) while the others are.
///
/// The Health app prints each child of `HealthData` on a new line indented by one space, and
/// nested elements deeper: a chunk ends after a `\n` followed by ` <` and a letter. That is a
/// guess about bytes, not a parse: in an edited file the guess can fall inside an element, a
/// comment or a CDATA section. It is checked, not trusted: a chunk that was cut wrongly fails
/// to parse on its own (its open element meets the synthetic `</HealthData>`, or the next one
/// starts with a stray end tag), and the read goes on sequentially from there
/// (`ExportReader.readInParallel`).
final class ChunkSplitter {
    struct Chunk {
        var index: Int
        /// Where the chunk starts in the file.
        var offset: Int64
        var bytes: [UInt8]
        var isFirst: Bool { index == 0 }
        var isLast: Bool
    }

    /// The file's bytes before the first top-level element's line: the XML declaration, the
    /// DOCTYPE and the root's start tag. Parsed again in front of every chunk but the first.
    let prolog: [UInt8]
    /// Line breaks in `prolog`.
    let prologLineBreaks: Int
    /// Bytes the pre-filter replaces in `prolog`: counted once, not once per chunk.
    let prologReplacements: Int

    /// Reads the document's next bytes into a buffer; 0 at its end.
    typealias Source = (UnsafeMutableRawBufferPointer) throws -> Int

    private let read: Source
    private let chunkBytes: Int
    /// A chunk larger than this without a boundary is not split (the read turns sequential):
    /// memory stays bounded even for an edited file without line breaks.
    private let maximumChunkBytes: Int
    private var carry: [UInt8]
    private var carryOffset: Int64 = 0
    /// Where the next chunk starts: the bytes before it were handed out.
    var consumedOffset: Int64 { carryOffset }
    private var atEnd = false
    private var nextIndex = 0

    /// Reads the prolog; `nil` when the file does not start like an export (no `HealthData`
    /// root within the first MiB): such files are read sequentially.
    init?(source: @escaping Source, chunkBytes: Int, maximumChunkBytes: Int = 16 << 20) throws {
        self.read = source
        self.chunkBytes = max(chunkBytes, 4096)
        self.maximumChunkBytes = max(maximumChunkBytes, self.chunkBytes)
        // Uninitialised capacity: a small file touches only the pages it fills, not a zeroed MiB.
        let head = try [UInt8](unsafeUninitializedCapacity: XMLPreFilter.maximumPrologLength) { buffer, headCount in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            while headCount < bytes.count {
                let n = try source(UnsafeMutableRawBufferPointer(rebasing: bytes[headCount...]))
                if n == 0 { break }
                headCount += n
            }
        }
        var filter = XMLPreFilter()
        let found: Int64?
        do {
            try head.withUnsafeBytes { try filter.process($0, isLast: head.count < XMLPreFilter.maximumPrologLength) { _, _ in } }
            found = filter.document == .healthData ? filter.rootStartOffset : nil
        } catch {
            found = nil
        }
        guard let rootStart = found, let tagEnd = Self.endOfStartTag(head, from: Int(rootStart)) else { return nil }
        prolog = Array(head[0..<tagEnd])
        prologLineBreaks = prolog.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        var prologFilter = XMLPreFilter()
        try (prolog + [0x0A]).withUnsafeBytes { try prologFilter.process($0, isLast: false) { _, _ in } }
        prologReplacements = prologFilter.replacedCount
        carry = head
    }

    /// The index after the `>` closing the start tag at `start`; quotes are skipped, since an
    /// attribute value may hold `>`.
    static func endOfStartTag(_ bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8 = 0
        var i = start
        while i < bytes.count {
            let c = bytes[i]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == 0x3E {
                return i + 1
            }
            i += 1
        }
        return nil
    }

    /// Whether a top-level element's line starts at `i`: ` <` and a letter after a line break.
    @inline(__always)
    static func isBoundary(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        guard i > 0, i + 2 < bytes.count, bytes[i] == 0x20, bytes[i - 1] == 0x0A, bytes[i + 1] == 0x3C else { return false }
        let c = bytes[i + 2]
        return (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    /// Whether the element starting at `i` (after ` <`) is `ExportDate` or `Me`.
    ///
    /// The name ends at the first byte that cannot continue an XML name, whatever it is: the
    /// pre-filter turns a control byte after the name (`<ExportDate\0…`) into a space before the
    /// parser sees it, so a list of the bytes that may end a name would disagree with the parser,
    /// cut the header off the first chunk, and hand the sink a header without its date (a
    /// finding of the export harness).
    static func isHeaderElement(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        func named(_ name: StaticString) -> Bool {
            let n = name.utf8CodeUnitCount
            guard i + 2 + n < bytes.count else { return false }
            for k in 0..<n where bytes[i + 2 + k] != name.utf8Start[k] { return false }
            return !continuesName(bytes[i + 2 + n])
        }
        return named("ExportDate") || named("Me")
    }

    /// Whether `byte` can be part of an XML name after its first character: an ASCII letter,
    /// digit, `-`, `.`, `_` or `:`, or any byte of a multi-byte UTF-8 character.
    @inline(__always)
    static func continuesName(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x3A, 0x80...: return true
        default: return false
        }
    }

    /// Where to cut `bytes` for a chunk of about `size` bytes: the last boundary before
    /// `size`, else the first after it; never at or before `from`. The first chunk is never
    /// cut before `ExportDate` or `Me`: the header the sink gets is the first chunk's, and must
    /// be whole.
    static func boundary(_ bytes: [UInt8], near size: Int, after from: Int, isFirst: Bool = false) -> Int? {
        bytes.withUnsafeBufferPointer { b in
            func accept(_ i: Int) -> Bool { isBoundary(b, i) && !(isFirst && isHeaderElement(b, i)) }
            var i = min(size, b.count - 3)
            while i > from {
                if accept(i) { return i }
                i -= 1
            }
            i = max(size, from + 1)
            while i < b.count - 2 {
                if accept(i) { return i }
                i += 1
            }
            return nil
        }
    }

    enum Next {
        case chunk(Chunk)
        /// No boundary within `maximumChunkBytes` from `offset`: read the rest sequentially.
        case unsplittable(offset: Int64)
        case end
    }

    /// The next chunk, read on the calling thread.
    func next() throws -> Next {
        if atEnd && carry.isEmpty { return .end }
        let index = nextIndex
        // The first chunk holds the prolog; no cut before its end.
        let notBefore = index == 0 ? prolog.count : 0
        while true {
            if carry.count >= chunkBytes || atEnd, let cut = Self.boundary(carry, near: chunkBytes, after: notBefore, isFirst: index == 0) {
                // The chunk keeps the buffer; only the few bytes after the cut are copied.
                let rest = Array(carry[cut...])
                carry.removeLast(carry.count - cut)
                let bytes = carry
                carry = rest
                let offset = carryOffset
                carryOffset += Int64(cut)
                nextIndex += 1
                return .chunk(Chunk(index: index, offset: offset, bytes: bytes, isLast: false))
            }
            if atEnd {
                let bytes = carry
                carry = []
                nextIndex += 1
                return .chunk(Chunk(index: index, offset: carryOffset, bytes: bytes, isLast: true))
            }
            if carry.count > maximumChunkBytes { return .unsplittable(offset: carryOffset) }
            let wanted = max(chunkBytes - carry.count, 64 * 1024)
            var filled = 0
            let previous = carry
            carry = try [UInt8](unsafeUninitializedCapacity: previous.count + wanted) { buffer, initialized in
                previous.withUnsafeBufferPointer { _ = buffer.initialize(from: $0) }
                filled = try fill(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[previous.count...])))
                initialized = previous.count + filled
            }
            if filled < wanted { atEnd = true }
        }
    }

    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}
