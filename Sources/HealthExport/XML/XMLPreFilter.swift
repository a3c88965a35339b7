#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte pass between the input and libxml2 that makes real exports parseable without
/// changing a single byte offset.
///
/// 1. **The DOCTYPE is blanked.** iOS 16 (export version 12) wrote an internal DTD that is not
///    well-formed; libxml2 stops at line 156 and delivers nothing, even in recover mode (quirk
///    Q1). The DTD declares no defaults or entities, so every byte from `<!DOCTYPE` to the root
///    start tag becomes a space (line breaks kept, so libxml2's lines and columns stay the
///    file's). This also means a hostile file cannot declare an entity at all.
/// 2. **Bytes XML forbids are replaced in place.** Control characters (`\x0B` in third-party
///    food names) become spaces; ill-formed UTF-8 becomes `?`, encoded surrogates and U+FFFE/FFFF
///    become U+FFFD (same length); a character reference to a forbidden code point (`&#11;`)
///    has its `&` replaced by `?`. libxml2 would otherwise stop mid-file, or in recover mode
///    silently truncate the value (quirk Q2). Every replacement is counted and reported.
/// 3. **A fragment gets a root.** A file holding `Record`/`Workout` elements without a
///    `HealthData` root (cut from an export) is wrapped in a synthetic one.
///
/// Memory is O(1): a chunk-sized work buffer and a tail of at most a few bytes carried over
/// when a UTF-8 sequence or a character reference straddles two chunks.
struct XMLPreFilter {
    /// What the prolog showed.
    enum Document: Equatable {
        case healthData
        case fragment(firstElement: String)
    }

    static let maximumPrologLength = 1 << 20

    private(set) var document: Document?
    /// Root elements accepted besides `HealthData` (and export fragments): `gpx` for routes,
    /// `ClinicalDocument` for the CDA document.
    var otherRoots: Set<String> = []
    private(set) var exportVersion: Int?
    /// Bytes replaced so far, and the offset of the first.
    private(set) var replacedCount = 0
    private(set) var firstReplacementOffset: Int64?
    /// Where a synthetic root was inserted (line, column), for correcting libxml2's columns.
    private(set) var syntheticRootPosition: (line: Int, column: Int)?
    /// What the prolog revealed, handed along with the bytes so that the parser's handler
    /// knows it before the first element.
    struct PreFilterFindings {
        var syntheticRootPosition: (line: Int, column: Int)?
        var exportVersion: Int?
    }

    var findings: PreFilterFindings {
        PreFilterFindings(syntheticRootPosition: syntheticRootPosition, exportVersion: exportVersion)
    }

    static let syntheticRootOpen: [UInt8] = Array("<HealthData>".utf8)
    static let syntheticRootClose: [UInt8] = Array("</HealthData>".utf8)

    private var prolog: [UInt8] = []
    /// The prolog's length at its last scan that needed more bytes: it is scanned again only
    /// once it has grown by half, so a prolog arriving in small pieces costs linear time, not
    /// quadratic (a DTD pushed a few bytes at a time was rescanned from its start each time).
    private var prologScannedLength = 0
    private var carry: [UInt8] = []
    private var work: [UInt8] = []
    /// Bytes consumed before the current work buffer, for replacement offsets.
    private var consumedOffset: Int64 = 0
    /// Where the root element's start tag begins, once the prolog is read.
    private(set) var rootStartOffset: Int64?

    init() {}

    /// A filter whose input starts `offset` bytes into the file (negative when a copy of the
    /// prolog is put in front of a chunk), so that replacement offsets are the file's.
    init(startingAt offset: Int64) {
        consumedOffset = offset
    }

    /// A filter for the body of a document whose prolog another filter read, from `offset` in
    /// the file on: where healthport's scanner hands the rest of a document to libxml2.
    init(continuingBodyAt offset: Int64, exportVersion: Int?) {
        consumedOffset = offset
        document = .healthData
        self.exportVersion = exportVersion
    }

    /// How far `processProlog` got.
    enum PrologProgress {
        /// The root element has not begun yet: more bytes are needed.
        case needMore
        /// The prolog was emitted; the body, from the root's start tag on, is returned unfiltered.
        case body(rest: [UInt8])
        /// A fragment: everything, synthetic root included, went through the filter as
        /// `process` does, and the rest must too.
        case fragment
    }

    /// Filters the prolog only: emits it (its DOCTYPE blanked) and returns the bytes from the
    /// root element's start tag on as they are, for a parser that repairs them itself
    /// (`ExportBodyScanner`) or for `process`. A fragment is filtered whole, as by `process`.
    mutating func processProlog(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool,
        emit: (UnsafeRawBufferPointer, PreFilterFindings) throws -> Void
    ) throws -> PrologProgress {
        precondition(document == nil, "processProlog reads the prolog once")
        prolog.append(contentsOf: chunk)
        guard isLast || prolog.count >= prologScannedLength + prologScannedLength / 2 else { return .needMore }
        guard let rootStart = try scanProlog(isLast: isLast) else {
            prologScannedLength = prolog.count
            return .needMore
        }
        rootStartOffset = consumedOffset + Int64(rootStart)
        var head = Array(prolog[0..<rootStart])
        let rest = Array(prolog[rootStart...])
        prolog = []
        let base = consumedOffset
        head.withUnsafeMutableBytes { buffer in
            _ = filter(buffer, from: 0, isLast: true, baseOffset: base)
        }
        consumedOffset += Int64(head.count)
        try head.withUnsafeBytes { try emit($0, findings) }
        if case .fragment = document {
            var line = 1
            var column = 1
            for b in head {
                if b == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            syntheticRootPosition = (line, column)
            try Self.syntheticRootOpen.withUnsafeBytes { try emit($0, findings) }
            try rest.withUnsafeBytes { try processBody($0, isLast: isLast, emit: emit) }
            return .fragment
        }
        return .body(rest: rest)
    }

    /// Where the next byte `process` filters lies in the file.
    var nextOffset: Int64 { consumedOffset + Int64(carry.count) }

    /// Whether bytes given to `process` wait for the next chunk instead of having been emitted:
    /// a UTF-8 sequence or character reference the filter cannot judge yet (a lead byte such
    /// as `0xF0` followed by fewer bytes than its length, even if they already show it bad).
    var isHoldingBytes: Bool { !carry.isEmpty }

    /// Filters a chunk and hands the bytes that are ready to `emit`.
    ///
    /// - Throws: `ExportError` (`notAnExport`, `limitExceeded`) from the prolog, or whatever
    ///   `emit` throws.
    mutating func process(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool,
        emit: (UnsafeRawBufferPointer, PreFilterFindings) throws -> Void
    ) throws {
        try processChunk(chunk, isLast: isLast, emit: emit)
    }

    private mutating func processChunk(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool,
        emit: (UnsafeRawBufferPointer, PreFilterFindings) throws -> Void
    ) throws {
        if document == nil {
            if case .body(let rest) = try processProlog(chunk, isLast: isLast, emit: emit) {
                try rest.withUnsafeBytes { try processBody($0, isLast: isLast, emit: emit) }
            }
            return
        }
        try processBody(chunk, isLast: isLast, emit: emit)
    }

    private mutating func processBody(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool,
        emit: (UnsafeRawBufferPointer, PreFilterFindings) throws -> Void
    ) throws {
        // The usual chunk has nothing to replace: filter it where it lies, without copying it
        // (every byte of the export was copied here once more; memcpy was the largest
        // non-libxml2 entry of a conversion's `perf` profile).
        if carry.isEmpty, chunk.count > 0 {
            let ready = filter(
                UnsafeMutableRawBufferPointer(mutating: chunk), from: 0, isLast: isLast, baseOffset: consumedOffset, readOnly: true)
            if ready != Self.needsCopy {
                consumedOffset += Int64(ready)
                if ready < chunk.count { carry.append(contentsOf: chunk[ready...]) }
                try emit(UnsafeRawBufferPointer(rebasing: chunk[0..<ready]), findings)
                if isLast { try finish(emit: emit) }
                return
            }
        }
        // Take the buffer out of `self` so that filtering it can mutate the counters.
        var buffer = work
        work = []
        defer { work = buffer }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: carry)
        buffer.append(contentsOf: chunk)
        carry.removeAll(keepingCapacity: true)
        let base = consumedOffset
        let ready = buffer.withUnsafeMutableBytes { bytes in
            filter(bytes, from: 0, isLast: isLast, baseOffset: base)
        }
        consumedOffset += Int64(ready)
        if ready < buffer.count { carry.append(contentsOf: buffer[ready...]) }
        try buffer.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[0..<ready]), findings) }
        if isLast { try finish(emit: emit) }
    }

    /// Closes a synthetic root after the last byte.
    private mutating func finish(emit: (UnsafeRawBufferPointer, PreFilterFindings) throws -> Void) throws {
        if case .fragment = document {
            try Self.syntheticRootClose.withUnsafeBytes { try emit($0, findings) }
        }
    }

    // MARK: Prolog

    /// Where the `?>` that ends a processing instruction begins, in the bytes as repaired
    /// (`ByteRepair`): a `?`, or an ill-formed UTF-8 byte that becomes one, followed by `>`.
    /// `nil` when the bytes end first.
    private static func processingInstructionEnd(_ b: [UInt8], from start: Int, isLast: Bool) -> Int? {
        b.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            let n = buffer.count
            var j = start
            while j + 1 < n {
                let c = p[j]
                if c < 0x80 {
                    if c == 0x3F && p[j + 1] == 0x3E { return j }
                    j += 1
                    continue
                }
                switch ByteRepair.judge(p, j, n) {
                case .character(let length):
                    j += length
                case .replacementCharacter:
                    j += 3
                case .incomplete where !isLast:
                    return nil  // judged once more bytes come
                case .questionMark, .incomplete:
                    // Becomes `?` (at the end, an incomplete sequence is repaired as ill-formed).
                    if p[j + 1] == 0x3E { return j }
                    j += 1
                }
            }
            return nil
        }
    }

    /// Finds the root start tag in `prolog`, blanking a DOCTYPE on the way. Returns `nil` when
    /// more bytes are needed.
    private mutating func scanProlog(isLast: Bool) throws -> Int? {
        let b = prolog
        let n = b.count
        var i = 0
        if n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
        // A byte-order mark arriving in pieces: wait for the rest of it.
        if n < 3 && n > 0 && [0xEF, 0xBB, 0xBF].starts(with: b) && !isLast { return nil }
        if n >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)) {
            throw ExportError(.notAnExport, "UTF-16 is not an Apple Health export encoding")
        }
        func needMore() throws -> Int? {
            if isLast || n > Self.maximumPrologLength {
                if n > Self.maximumPrologLength {
                    throw ExportError(.limitExceeded, "no root element within the first 1 MiB")
                }
                throw ExportError(.notAnExport, "not an Apple Health export: no root element")
            }
            return nil
        }
        func find(_ pattern: [UInt8], from start: Int) -> Int? {
            guard start < n, pattern.count <= n - start else { return nil }
            // memchr for the first byte, memcmp for the rest: no array per position.
            return b.withUnsafeBytes { bytes in
                pattern.withUnsafeBytes { needle in
                    let base = bytes.baseAddress!
                    var j = start
                    while j + pattern.count <= n, let hit = memchr(base + j, Int32(pattern[0]), n - pattern.count + 1 - j) {
                        j = base.distance(to: UnsafeRawPointer(hit))
                        if memcmp(base + j, needle.baseAddress!, pattern.count) == 0 { return j }
                        j += 1
                    }
                    return nil
                }
            }
        }
        func isNameStart(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x3A || c >= 0x80
        }
        while true {
            while i < n && (b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D) { i += 1 }
            guard i + 1 < n else { return try needMore() }
            guard b[i] == 0x3C else {
                throw ExportError(.notAnExport, "not an Apple Health export: the file does not start with XML")
            }
            if b[i + 1] == 0x3F {
                // <?xml …?> or another processing instruction, ending where libxml2 will see
                // its end: after the repairs, so an ill-formed byte before `>` ends it too (it
                // becomes `?`). Searching the raw bytes put the end at a later `?>`, and markup
                // between the two, a DOCTYPE above all, was left unblanked (found by
                // `Fuzz/scanner`).
                guard let end = Self.processingInstructionEnd(b, from: i + 2, isLast: isLast) else { return try needMore() }
                // Judged as libxml2 will see it, repaired: a control character there becomes a
                // space, which XML's declaration takes as white space (`encoding\0="UTF-7"` made
                // libxml2 read the body as UTF-7; found by the scanner fuzz harness).
                let repaired = b[i..<end].map { ByteRepair.isForbiddenControl($0) ? 0x20 : $0 }
                let text = String(decoding: repaired, as: UTF8.self)
                let isDeclaration = text.hasPrefix("<?xml") && text.dropFirst(5).first.map(Self.isXMLWhiteSpace) == true
                if isDeclaration, let encoding = Self.declaredEncoding(text) {
                    let lowered = encoding.lowercased()
                    if lowered != "utf-8" && lowered != "utf8" && lowered != "us-ascii" {
                        throw ExportError(
                            .notAnExport,
                            "unsupported encoding \"\(encoding.prefix(40))\": Apple Health exports are UTF-8")
                    }
                }
                i = end + 2
                continue
            }
            if b[i + 1] == 0x21 {
                if n - i >= 4 && b[i + 2] == 0x2D && b[i + 3] == 0x2D {
                    guard let end = find([0x2D, 0x2D, 0x3E], from: i + 4) else { return try needMore() }
                    i = end + 3
                    continue
                }
                guard n - i >= 9 else { return try needMore() }
                guard Array(b[(i + 2)..<(i + 9)]) == Array("DOCTYPE".utf8) else {
                    throw ExportError(.notAnExport, "not an Apple Health export: unexpected markup before the root element")
                }
                // Blank from here to the root start tag.
                var j = i + 9
                var root: Int? = nil
                while j + 1 < n {
                    if b[j] == 0x3C && isNameStart(b[j + 1]) {
                        root = j
                        break
                    }
                    j += 1
                }
                guard let rootStart = root else { return try needMore() }
                let doctype = String(decoding: b[i..<rootStart], as: UTF8.self)
                exportVersion = Self.exportVersion(in: doctype)
                for k in i..<rootStart where b[k] != 0x0A && b[k] != 0x0D { prolog[k] = 0x20 }
                i = rootStart
                continue
            }
            guard isNameStart(b[i + 1]) else {
                throw ExportError(.notAnExport, "not an Apple Health export: no root element")
            }
            var j = i + 1
            while j < n && b[j] != 0x20 && b[j] != 0x3E && b[j] != 0x2F && b[j] != 0x09 && b[j] != 0x0A
                && b[j] != 0x0D
            {
                j += 1
            }
            guard j < n else { return try needMore() }
            let name = String(decoding: b[(i + 1)..<j], as: UTF8.self)
            if name == "HealthData" || otherRoots.contains(name) {
                document = .healthData
            } else if Self.fragmentElements.contains(name) {
                document = .fragment(firstElement: name)
            } else {
                throw ExportError(
                    .notAnExport, "not an Apple Health export: the root element is <\(name.prefix(40))>, not <HealthData>")
            }
            return i
        }
    }

    /// Elements that begin a fragment cut out of an export.
    static let fragmentElements: Set<String> = [
        "Record", "Workout", "Correlation", "ActivitySummary", "ClinicalRecord", "Audiogram",
        "VisionPrescription", "ExportDate", "Me",
    ]

    /// XML's white space (`S`); a CR LF pair is one `Character`.
    private static func isXMLWhiteSpace(_ c: Character) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n"
    }

    static func declaredEncoding(_ declaration: String) -> String? {
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop(while: { $0 == "=" || isXMLWhiteSpace($0) })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        return String(rest.prefix(while: { $0 != quote }))
    }

    static func exportVersion(in doctype: String) -> Int? {
        guard let range = doctype.range(of: "HealthKit Export Version:") else { return nil }
        let digits = doctype[range.upperBound...].drop(while: { $0 == " " }).prefix(while: { $0.isNumber })
        return Int(digits)
    }

    // MARK: Body

    /// Returned by a read-only `filter` that met a byte it would have to replace.
    private static let needsCopy = -1

    /// Filters `buffer` in place from `start`; returns how many bytes are ready (the rest is an
    /// incomplete sequence to carry, unless `isLast`).
    ///
    /// With `readOnly`, nothing is written: the first byte to replace returns `needsCopy`
    /// (before any counter changes), and the caller filters a copy instead.
    private mutating func filter(
        _ buffer: UnsafeMutableRawBufferPointer, from start: Int, isLast: Bool, baseOffset: Int64, readOnly: Bool = false
    ) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let n = buffer.count
        var i = start
        @inline(__always) func replaced(_ at: Int) {
            if firstReplacementOffset == nil { firstReplacementOffset = baseOffset + Int64(at) }
            replacedCount += 1
        }
        while i < n {
            // Eight plain ASCII bytes at a time: no byte ≥ 0x80, none < 0x20, no '&'.
            if i + 8 <= n {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let high: UInt64 = 0x8080_8080_8080_8080
                let low = (w &- 0x2020_2020_2020_2020) & ~w & high
                let amp = w ^ 0x2626_2626_2626_2626
                let hasAmp = (amp &- 0x0101_0101_0101_0101) & ~amp & high
                if (w & high) == 0 && low == 0 && hasAmp == 0 {
                    i += 8
                    continue
                }
            }
            let c = p[i]
            if c < 0x80 {
                if c < 0x20 {
                    if ByteRepair.isForbiddenControl(c) {
                        if readOnly { return Self.needsCopy }
                        p[i] = 0x20
                        replaced(i)
                    }
                } else if c == 0x26 {
                    // A character reference to a code point XML forbids?
                    if i + 1 >= n {
                        if !isLast { return i }
                    } else if p[i + 1] == 0x23 {
                        switch ByteRepair.judgeReference(UnsafePointer(p), i, n) {
                        case .incomplete:
                            if !isLast { return i }
                        case .forbidden:
                            if readOnly { return Self.needsCopy }
                            p[i] = 0x3F
                            replaced(i)
                        case .allowed, .other:
                            break
                        }
                    }
                }
                i += 1
                continue
            }
            // Multi-byte UTF-8 (`ByteRepair` judges it for this filter and for the scanner alike).
            switch ByteRepair.judge(UnsafePointer(p), i, n) {
            case .character(let length):
                i += length
            case .replacementCharacter:
                if readOnly { return Self.needsCopy }
                p[i] = 0xEF
                p[i + 1] = 0xBF
                p[i + 2] = 0xBD
                replaced(i)
                i += 3
            case .questionMark:
                if readOnly { return Self.needsCopy }
                p[i] = 0x3F
                replaced(i)
                i += 1
            case .incomplete:
                if !isLast { return i }
                // Cut off at the very end: replace what is there.
                if readOnly { return Self.needsCopy }
                p[i] = 0x3F
                replaced(i)
                i += 1
            }
        }
        return n
    }

    /// XML 1.0's `Char` production.
    static func isXMLChar(_ v: UInt32) -> Bool { ByteRepair.isXMLChar(v) }
}
