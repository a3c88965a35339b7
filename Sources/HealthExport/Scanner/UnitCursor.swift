#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one top-level element of the body — the white space before it, its start tag, its
/// children, its end tag — into a `ScannedUnit`, in one pass over the bytes.
///
/// The grammar is the subset of XML 1.0 Apple's exporter writes: ASCII names, attribute values
/// in either quote with the five predefined entities and character references, white space
/// between tags. Everything outside it ends the scan with a `HandoverPoint.Reason`, and libxml2
/// reads the element instead; so what this accepts must be exactly what libxml2 accepts, with
/// the same values. In particular it checks what libxml2 checks on this subset: matching end
/// tags, unique attributes, `=` and quotes, no `<` in values, and the bytes the pre-filter would
/// repair are repaired here, in the value, as `ByteRepair` says.
///
/// Lines are counted as the bytes go by (line feeds only occur in white space and values);
/// columns are left to be computed when asked (`ColumnCounter`).
struct UnitCursor {
    let p: UnsafePointer<UInt8>
    let n: Int
    var i: Int
    var line: Int
    /// Where the current line starts in the window; -1 before the window.
    var lineStart: Int

    enum Outcome: Equatable {
        /// The element is complete and well-formed; `i` is after its end.
        case complete
        /// The window ends inside it.
        case needMore
        case handover(HandoverPoint.Reason)
    }

    static let maximumDepth = 200
    static let maximumAttributes = 256
    static let maximumNameLength = 1000

    // MARK: White space

    /// Skips spaces, tabs and line feeds, counting lines; returns how many bytes it skipped.
    @inline(__always)
    mutating func skipWhiteSpace() -> Int {
        let start = i
        while i < n {
            let c = p[i]
            if c == 0x20 || c == 0x09 {
                i += 1
            } else if c == 0x0A {
                i += 1
                line += 1
                lineStart = i
            } else {
                break
            }
        }
        return i - start
    }

    // MARK: One element

    /// Reads the element from `i`, or, when `unit.resume` is set, from that checkpoint of an
    /// earlier scan of the same window (same offsets) that the window's end cut short.
    mutating func scan(into unit: inout ScannedUnit) -> Outcome {
        if let checkpoint = unit.resume {
            unit.restore(checkpoint)
            i = checkpoint.i
            line = checkpoint.line
            lineStart = checkpoint.lineStart
            return tags(into: &unit)
        }
        _ = skipWhiteSpace()
        guard i < n else { return .needMore }
        guard p[i] == 0x3C else { return .handover(.text) }
        guard i + 1 < n else { return .needMore }
        let first = p[i + 1]
        if first == 0x2F { return .handover(.rootEnd) }
        guard NameBytes.isNameStart(first) else { return .handover(.markup) }
        return tags(into: &unit)
    }

    /// The element's tags, from one at `i` (a `<` with one more byte available).
    private mutating func tags(into unit: inout ScannedUnit) -> Outcome {
        while true {
            unit.resume = ScannedUnit.Checkpoint(
                i: i, line: line, lineStart: lineStart, events: unit.events.count, attributes: unit.attributes.count,
                arena: unit.arena.count, open: unit.open.count, replacements: unit.replacements,
                firstReplacement: unit.firstReplacement)
            if p[i + 1] == 0x2F {
                if let outcome = endTag(into: &unit) { return outcome }
            } else {
                if let outcome = startTag(into: &unit) { return outcome }
                if unit.open.isEmpty { return .complete }
            }
            // Content: white space up to the next tag.
            _ = skipWhiteSpace()
            guard i < n else { return .needMore }
            guard p[i] == 0x3C else { return .handover(.text) }
            guard i + 1 < n else { return .needMore }
        }
    }

    /// `</name S?>` at `i`; `nil` to go on, `.complete` when it closes the top-level element.
    @inline(__always)
    private mutating func endTag(into unit: inout ScannedUnit) -> Outcome? {
        guard !unit.open.isEmpty else { return .handover(.malformed) }
        let open = unit.open.last
        let nameStart = i + 2
        guard nameStart + open.length <= n else { return .needMore }
        guard memcmp(p + nameStart, p + open.start, open.length) == 0 else { return .handover(.malformed) }
        i = nameStart + open.length
        _ = skipWhiteSpace()
        guard i < n else { return .needMore }
        guard p[i] == 0x3E else { return .handover(.malformed) }
        i += 1
        unit.events.append(
            ScannedUnit.Event(
                isStart: false, nameStart: open.start, nameLength: open.length, firstAttribute: 0, attributeCount: 0,
                position: i, line: line, lineStart: lineStart))
        unit.open.removeLast()
        return unit.open.isEmpty ? .complete : nil
    }

    /// `<name (S attribute)* S? (> | />)` at `i`; `nil` to go on.
    @inline(__always)
    private mutating func startTag(into unit: inout ScannedUnit) -> Outcome? {
        let nameStart = i + 1
        i = nameStart
        guard NameBytes.isNameStart(p[i]) else { return .handover(.markup) }
        i += 1
        while i < n && NameBytes.isNameCharacter(p[i]) { i += 1 }
        guard i < n else { return .needMore }
        let nameLength = i - nameStart
        guard nameLength <= Self.maximumNameLength else { return .handover(.limit) }
        let firstAttribute = unit.attributes.count
        // One bit per name length seen: a repeated attribute needs a repeated length, so only
        // then are names compared (a record's nine attribute names share one length, twice).
        var lengthsSeen: UInt64 = 0
        while true {
            let skipped = skipWhiteSpace()
            guard i < n else { return .needMore }
            let c = p[i]
            if c == 0x3E {
                unit.events.append(
                    ScannedUnit.Event(
                        isStart: true, nameStart: nameStart, nameLength: nameLength, firstAttribute: firstAttribute,
                        attributeCount: unit.attributes.count - firstAttribute, position: i, line: line, lineStart: lineStart))
                i += 1
                guard unit.open.count < Self.maximumDepth else { return .handover(.limit) }
                unit.open.append(ScannedUnit.Name(start: nameStart, length: nameLength))
                return nil
            }
            if c == 0x2F {
                guard i + 1 < n else { return .needMore }
                guard p[i + 1] == 0x3E else { return .handover(.malformed) }
                unit.events.append(
                    ScannedUnit.Event(
                        isStart: true, nameStart: nameStart, nameLength: nameLength, firstAttribute: firstAttribute,
                        attributeCount: unit.attributes.count - firstAttribute, position: i, line: line, lineStart: lineStart))
                i += 2
                unit.events.append(
                    ScannedUnit.Event(
                        isStart: false, nameStart: nameStart, nameLength: nameLength, firstAttribute: 0, attributeCount: 0,
                        position: i, line: line, lineStart: lineStart))
                return nil
            }
            guard skipped > 0, NameBytes.isNameStart(c) else { return .handover(Self.reason(for: c)) }
            // The attribute's name.
            let attributeNameStart = i
            i += 1
            while i < n && NameBytes.isNameCharacter(p[i]) { i += 1 }
            guard i < n else { return .needMore }
            let attributeNameEnd = i
            let length = attributeNameEnd - attributeNameStart
            guard length <= Self.maximumNameLength else { return .handover(.limit) }
            // `xmlns` declares a namespace: libxml2 takes it out of the attributes.
            if length == 5 && memcmp(p + attributeNameStart, "xmlns", 5) == 0 { return .handover(.name) }
            let bit: UInt64 = 1 << UInt64(length & 63)
            if lengthsSeen & bit != 0 {
                for k in firstAttribute..<unit.attributes.count {
                    let other = unit.attributes[k]
                    if other.nameEnd - other.nameStart == length
                        && memcmp(p + other.nameStart, p + attributeNameStart, length) == 0
                    {
                        return .handover(.malformed)
                    }
                }
            }
            lengthsSeen |= bit
            _ = skipWhiteSpace()
            guard i < n else { return .needMore }
            guard p[i] == 0x3D else { return .handover(Self.reason(for: p[i])) }
            i += 1
            _ = skipWhiteSpace()
            guard i < n else { return .needMore }
            let quote = p[i]
            guard quote == 0x22 || quote == 0x27 else { return .handover(.malformed) }
            i += 1
            guard unit.attributes.count - firstAttribute < Self.maximumAttributes else { return .handover(.limit) }
            let valueStart = i
            switch scanPlainValue(quote) {
            case .plain(let valueEnd):
                unit.attributes.append(
                    ScannedUnit.Attribute(
                        nameStart: attributeNameStart, nameEnd: attributeNameEnd, valueStart: valueStart, valueEnd: valueEnd,
                        valueIsDecoded: false))
            case .needsDecoding:
                let arenaStart = unit.arena.count
                if let outcome = decodeValue(quote, from: valueStart, into: &unit) { return outcome }
                unit.attributes.append(
                    ScannedUnit.Attribute(
                        nameStart: attributeNameStart, nameEnd: attributeNameEnd, valueStart: arenaStart, valueEnd: unit.arena.count,
                        valueIsDecoded: true))
            case .stop(let outcome):
                return outcome
            }
        }
    }

    /// Why a tag cannot go on with byte `c`: a name the scanner does not take (a prefix, or
    /// non-ASCII), white space it does not take (a carriage return, a control character the
    /// pre-filter would make a space), or a tag that is not well-formed.
    private static func reason(for c: UInt8) -> HandoverPoint.Reason {
        if c == 0x3A || c >= 0x80 { return .name }
        if c < 0x20 { return .text }
        return .malformed
    }

    // MARK: Attribute values

    private enum PlainValue {
        /// The value is its bytes, up to `end`; `i` is after the closing quote.
        case plain(end: Int)
        /// It holds a byte to decode, normalize or repair, at `i`.
        case needsDecoding
        case stop(Outcome)
    }

    /// The bytes the value scan stops at, eight at a time: the quote, `&`, `<`, a byte below
    /// 0x20 (tab and line feed are normalized, the others repaired) and a byte of 0x80 or more
    /// (UTF-8 to check). Exact per byte (no borrow crosses bytes), so the lowest set bit is the
    /// first such byte. Attribute values are most of an export's bytes, and most of a value
    /// holds none of these: this loop is the scanner's speed. Against the same loop a byte at a
    /// time, on the 4-year export (`Benchmarks/measure.py`, 5 runs, as ratios to the libxml2
    /// floor of `Benchmarks/run.sh`): reading alone (the rare-type task) 0.34× → 0.29×, NDJSON
    /// 1.57× → 1.40×.
    @inline(__always)
    static func specialBytes(_ w: UInt64, quote: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x | low7) }
        let controls = ~(((w & low7) &+ 0x6060_6060_6060_6060) | w) & high
        return zeroBytes(w ^ quote) | zeroBytes(w ^ 0x2626_2626_2626_2626) | zeroBytes(w ^ 0x3C3C_3C3C_3C3C_3C3C)
            | controls | (w & high)
    }

    @inline(__always)
    private static func isSpecial(_ c: UInt8, quote: UInt8) -> Bool {
        c == quote || c == 0x26 || c == 0x3C || c < 0x20 || c >= 0x80
    }

    /// Advances `i` to the next special byte (or the window's end).
    @inline(__always)
    private mutating func skipOrdinaryValueBytes(quote: UInt8, quoteMask: UInt64) {
        while i + 8 <= n {
            let m = Self.specialBytes(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self), quote: quoteMask)
            if m != 0 {
                i += m.trailingZeroBitCount >> 3
                return
            }
            i += 8
        }
        while i < n && !Self.isSpecial(p[i], quote: quote) { i += 1 }
    }

    /// The common value: read in place, no byte changed. Well-formed multi-byte characters are
    /// taken as they are.
    @inline(__always)
    private mutating func scanPlainValue(_ quote: UInt8) -> PlainValue {
        let quoteMask = UInt64(quote) &* 0x0101_0101_0101_0101
        while true {
            skipOrdinaryValueBytes(quote: quote, quoteMask: quoteMask)
            guard i < n else { return .stop(.needMore) }
            let c = p[i]
            if c == quote {
                let end = i
                i += 1
                return .plain(end: end)
            }
            if c >= 0x80 {
                switch ByteRepair.judge(p, i, n) {
                case .character(let length):
                    i += length
                    continue
                case .incomplete:
                    return .stop(.needMore)
                case .replacementCharacter, .questionMark:
                    return .needsDecoding
                }
            }
            if c == 0x3C || c == 0x0D { return .stop(.handover(.attributeValue)) }
            return .needsDecoding
        }
    }

    /// A value with something to decode from `i` on: its bytes from `start` go to the arena,
    /// decoded. Returns `nil` when the closing quote was reached (`i` after it).
    private mutating func decodeValue(_ quote: UInt8, from start: Int, into unit: inout ScannedUnit) -> Outcome? {
        let quoteMask = UInt64(quote) &* 0x0101_0101_0101_0101
        unit.arena.append(p + start, count: i - start)
        while true {
            let run = i
            skipOrdinaryValueBytes(quote: quote, quoteMask: quoteMask)
            unit.arena.append(p + run, count: i - run)
            guard i < n else { return .needMore }
            let c = p[i]
            switch c {
            case quote:
                i += 1
                return nil
            case 0x09:
                // Attribute-value normalization (XML 1.0 §3.3.3): white space becomes a space.
                unit.arena.append(0x20)
                i += 1
            case 0x0A:
                unit.arena.append(0x20)
                i += 1
                line += 1
                lineStart = i
            case 0x0D, 0x3C:
                return .handover(.attributeValue)
            case 0x26:
                if let outcome = reference(into: &unit) { return outcome }
            case 0x00..<0x20:
                unit.arena.append(0x20)
                Self.noteRepair(at: i, in: &unit)
                i += 1
            default:
                switch ByteRepair.judge(p, i, n) {
                case .character(let length):
                    unit.arena.append(p + i, count: length)
                    i += length
                case .replacementCharacter:
                    unit.arena.append(0xEF)
                    unit.arena.append(0xBF)
                    unit.arena.append(0xBD)
                    Self.noteRepair(at: i, in: &unit)
                    i += 3
                case .questionMark:
                    unit.arena.append(0x3F)
                    Self.noteRepair(at: i, in: &unit)
                    i += 1
                case .incomplete:
                    return .needMore
                }
            }
        }
    }

    @inline(__always)
    private static func noteRepair(at offset: Int, in unit: inout ScannedUnit) {
        unit.replacements += 1
        if unit.firstReplacement == nil { unit.firstReplacement = offset }
    }

    /// `&…;` at `i` inside a value: a character reference or one of the five entities.
    private mutating func reference(into unit: inout ScannedUnit) -> Outcome? {
        guard i + 1 < n else { return .needMore }
        if p[i + 1] == 0x23 {
            switch ByteRepair.judgeReference(p, i, n) {
            case .allowed(let codePoint, let end):
                Self.appendUTF8(codePoint, to: &unit.arena)
                i = end
            case .forbidden:
                // The pre-filter makes the `&` a `?`; the rest is text.
                unit.arena.append(0x3F)
                Self.noteRepair(at: i, in: &unit)
                i += 1
            case .incomplete:
                return .needMore
            case .other:
                return .handover(.attributeValue)
            }
            return nil
        }
        // `&quot;` and `&apos;` are the longest; a value that ends sooner cannot be complete.
        guard n - i >= 6 else { return .needMore }
        let q = p + i + 1
        if q[0] == 0x61 && q[1] == 0x6D && q[2] == 0x70 && q[3] == 0x3B {  // amp;
            unit.arena.append(0x26)
            i += 5
        } else if q[0] == 0x6C && q[1] == 0x74 && q[2] == 0x3B {  // lt;
            unit.arena.append(0x3C)
            i += 4
        } else if q[0] == 0x67 && q[1] == 0x74 && q[2] == 0x3B {  // gt;
            unit.arena.append(0x3E)
            i += 4
        } else if q[0] == 0x71 && q[1] == 0x75 && q[2] == 0x6F && q[3] == 0x74 && q[4] == 0x3B {  // quot;
            unit.arena.append(0x22)
            i += 6
        } else if q[0] == 0x61 && q[1] == 0x70 && q[2] == 0x6F && q[3] == 0x73 && q[4] == 0x3B {  // apos;
            unit.arena.append(0x27)
            i += 6
        } else {
            return .handover(.attributeValue)
        }
        return nil
    }

    private static func appendUTF8(_ v: UInt32, to bytes: inout ScratchBuffer<UInt8>) {
        switch v {
        case 0..<0x80:
            bytes.append(UInt8(v))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (v >> 6)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x1_0000:
            bytes.append(UInt8(0xE0 | (v >> 12)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (v >> 18)))
            bytes.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        }
    }
}
