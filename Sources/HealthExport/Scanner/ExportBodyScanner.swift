/// healthport's own parser for the body of `export.xml`: the elements inside `HealthData`, as
/// Apple's exporter writes them, read in one pass over the bytes and delivered to the mapper
/// through the same events libxml2 delivers (`ElementEventSource`), several times faster than
/// libxml2 (`Benchmarks/run.sh`).
///
/// **What it reads.** Top-level elements in the subset of XML that `UnitCursor` describes:
/// ASCII names, quoted attribute values with the five entities and character references,
/// white space between tags. It folds in the pre-filter's repairs (`ByteRepair`) and checks
/// what libxml2 checks there (matching end tags, unique attributes, UTF-8).
///
/// **What it leaves to libxml2.** The prolog, the DTD and the root's start tag are libxml2's
/// before the scanner starts (`ExportParseChain`). A top-level element is delivered only once
/// all of it has been read and accepted; at the first one the scanner does not accept — a
/// comment, a processing instruction, CDATA, text, a carriage return, a namespace, any error —
/// and at `</HealthData>`, it hands the rest of the document, from the end of the last element
/// it delivered, to libxml2 behind a new pre-filter (`HandoverPoint`). libxml2, paused inside the
/// root since its start tag, is told the line and column it resumes at, so what it reports —
/// objects, warnings, errors with their messages and positions — is what a libxml2-only read
/// reports. The fall-back is for the rest of the file: a document that needs libxml2 once
/// usually needs it again (a CRLF file, a hand-edited one), and it keeps the two parsers from
/// taking turns inside one document.
///
/// **The one known difference.** libxml2 interns element and attribute names in a dictionary
/// it bounds (about 21 MB of distinct names without `XML_PARSE_HUGE`) and stops with "Memory
/// allocation failed" past it; the scanner keeps no dictionary, so it reads such a document,
/// which only an attack makes (a 37 MB file of 2.5 million distinct element names: libxml2
/// stops at its 1,985,902nd line after 66 s, the scanner reads it in 4 s). What the mapper keeps
/// of unknown names is bounded on its own (`WarningCollector`, `notePassedThrough`).
///
/// **Positions.** A handler asking for `line` and `column` gets libxml2's: at the `>` or `/`
/// ending a start tag, after an end tag. Lines are counted while scanning; columns only when
/// asked (`ColumnCounter`), since only errors and warnings ask.
///
/// **Memory and time.** The caller's chunk is read in place. Only the element that straddles
/// two chunks is copied (with the white space before it), and read on from the start of its
/// last tag as chunks arrive (`ScannedUnit.Checkpoint`), so every byte is read about once; an
/// element over `maximumElementBytes` is handed to libxml2 rather than held.
final class ExportBodyScanner: ElementEventSource {
    /// The largest top-level element held whole (a workout with a legacy inline route is the
    /// largest real one: about 110 bytes a point, 800 KB for two hours at one point a second).
    /// Held, it takes about four times its size (the carry, its copy while the next chunk is
    /// joined, the tokens), so 2 MiB keeps a conversion well under the 64 MB memory goal (a
    /// 90,000-point workout read to this bound peaked 18 MB above libxml2's read at 4 MiB);
    /// a larger element goes to libxml2, which streams it.
    static let maximumElementBytes = 2 << 20

    /// The largest piece read at once: window offsets are kept in 32 bits (`ScannedUnit`).
    static let maximumPieceBytes = 1 << 30

    /// The handler, not reference-counted on each call (as `SAXParser` does); the chain holds it.
    private unowned(unsafe) let mapper: ExportMapper

    // The scanner's state is read and written on the parsing thread only, with no access
    // overlapping another, so it opts out of dynamic exclusivity checks (`@exclusivity`), which
    // cost a runtime call per access on this path.

    /// Bytes after the last element delivered, when a chunk ended inside the next one.
    @exclusivity(unchecked) private var carry: [UInt8] = []
    /// The carry with the beginning of the next chunk, while that element is completed.
    @exclusivity(unchecked) private var work: [UInt8] = []
    @exclusivity(unchecked) private var unit = ScannedUnit()
    /// Whether the next window starts where the last one did, so that the element it cut can
    /// be read on from its checkpoint (`ScannedUnit.resume`) rather than from its start.
    @exclusivity(unchecked) private var resumable = false
    /// Attribute slots handed to the mapper (`AttributeView`), reused.
    private let slots: UnsafeMutablePointer<UnsafePointer<UInt8>?>

    // Where the next element starts, in the current window (the chunk, or the carry).
    @exclusivity(unchecked) private var accepted = 0
    @exclusivity(unchecked) private var acceptedLine: Int
    /// Where the accepted position's line starts in the window; -1: before it.
    @exclusivity(unchecked) private var acceptedLineStart = -1
    /// When the current line starts before the window: a point of the window on that line, and
    /// the characters of the line before it. The point is always between two elements, never
    /// inside a character: a window that begins where a chunk does can begin inside a UTF-8
    /// sequence, whose bytes would then be counted on both sides (found by `Fuzz/scanner`: a
    /// column two too far after a three-byte character cut by the chunk boundary).
    @exclusivity(unchecked) private var columnAnchor: (offset: Int, characters: Int)
    /// The file offset of the window's first byte.
    @exclusivity(unchecked) private var windowFileOffset: Int64

    // The event being delivered, for `line` and `column`.
    @exclusivity(unchecked) private var eventWindow: UnsafePointer<UInt8>? = nil
    @exclusivity(unchecked) private var eventLine = 0
    @exclusivity(unchecked) private var eventPosition = 0
    @exclusivity(unchecked) private var eventLineStart = -1
    /// The last column computed in this window, so that asking on every element of a long
    /// line costs the line once, not once per element.
    @exclusivity(unchecked) private var columnCache: (lineStart: Int, position: Int, column: Int)? = nil

    /// Bytes repaired (`ByteRepair`) in the elements delivered, and the file offset of the first.
    @exclusivity(unchecked) private(set) var replacedCount = 0
    @exclusivity(unchecked) private(set) var firstReplacementOffset: Int64? = nil
    /// Top-level elements delivered.
    @exclusivity(unchecked) private(set) var elementCount = 0
    /// Bytes of the body read by the scanner, up to the handover.
    @exclusivity(unchecked) private(set) var scannedBytes: Int64 = 0
    /// Where the rest went to libxml2, once it has.
    private(set) var handover: HandoverPoint? = nil

    @exclusivity(unchecked) private(set) var pendingError: (any Error)? = nil

    /// A scanner for a body that starts at `fileOffset`, at `line` and `column` (libxml2's
    /// position after the root's start tag).
    init(mapper: ExportMapper, fileOffset: Int64, line: Int, column: Int) {
        self.mapper = mapper
        windowFileOffset = fileOffset
        acceptedLine = line
        columnAnchor = (0, max(0, column - 1))
        slots = .allocate(capacity: UnitCursor.maximumAttributes * AttributeView.slotsPerAttribute)
    }

    deinit {
        slots.deallocate()
    }

    // MARK: ElementEventSource

    var line: Int { eventLine }

    var column: Int {
        guard let window = eventWindow else { return 0 }
        if let cache = columnCache, cache.lineStart == eventLineStart, cache.position <= eventPosition {
            let column = cache.column + ColumnCounter.characters(window, from: cache.position, to: eventPosition)
            columnCache = (eventLineStart, eventPosition, column)
            return column
        }
        let column: Int
        if eventLineStart >= 0 {
            column = 1 + ColumnCounter.characters(window, from: eventLineStart, to: eventPosition)
        } else {
            column = 1 + columnAnchor.characters + ColumnCounter.characters(window, from: columnAnchor.offset, to: eventPosition)
        }
        columnCache = (eventLineStart, eventPosition, column)
        return column
    }

    func stop(with error: any Error) {
        if pendingError == nil { pendingError = error }
    }

    // MARK: Feeding

    /// Reads the next bytes of the body (`isLast` with the end of the document). When the
    /// scanner hands over, `handover` gets the point once and `rest` every byte from it on, in
    /// order; the scanner takes no more bytes after that.
    ///
    /// - Throws: the error a handler stopped with.
    func feed(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool, handover: (HandoverPoint) throws -> Void,
        rest: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        precondition(self.handover == nil, "the scanner handed the document over")
        if chunk.count > Self.maximumPieceBytes {
            var offset = 0
            while offset < chunk.count, self.handover == nil {
                let end = min(chunk.count, offset + Self.maximumPieceBytes)
                try feed(UnsafeRawBufferPointer(rebasing: chunk[offset..<end]), isLast: isLast && end == chunk.count, handover: handover, rest: rest)
                offset = end
            }
            if offset < chunk.count { try rest(UnsafeRawBufferPointer(rebasing: chunk[offset...])) }
            return
        }
        var chunkStart = 0
        if !carry.isEmpty {
            // Complete the carried element with as little of the chunk as it needs.
            var take = min(chunk.count, max(4096, carry.count))
            while true {
                work.removeAll(keepingCapacity: true)
                work.append(contentsOf: carry)
                if take > 0 { work.append(contentsOf: chunk[0..<take]) }
                let windowIsLast = isLast && take == chunk.count
                let outcome = try work.withUnsafeBufferPointer { window in
                    try scanWindow(window.baseAddress!, window.count, isLast: windowIsLast)
                }
                switch outcome {
                case .needMore where accepted <= carry.count && take < chunk.count:
                    // The same window, longer: the element is read on from its checkpoint.
                    take = min(chunk.count, take * 4)
                    resumable = accepted == 0
                    continue
                case .needMore where accepted <= carry.count:
                    // All of the chunk belongs to the element still open.
                    let keep = accepted
                    work.withUnsafeBufferPointer { rebaseWindow(at: keep, in: $0.baseAddress!) }
                    if keep == 0 {
                        swap(&carry, &work)
                    } else {
                        carry.removeAll(keepingCapacity: true)
                        carry.append(contentsOf: work[keep...])
                    }
                    resumable = keep == 0
                    if carry.count > Self.maximumElementBytes { try handOverCarry(handover, rest) }
                    return
                case .needMore:
                    // The element ended inside the chunk: go on reading the chunk in place.
                    let carried = carry.count
                    work.withUnsafeBufferPointer { rebaseWindow(at: carried, in: $0.baseAddress!) }
                    chunkStart = accepted
                    accepted = chunkStart
                    carry.removeAll(keepingCapacity: true)
                case .handover(let reason):
                    let from = accepted
                    let window = work
                    work = []
                    carry = []
                    try window.withUnsafeBytes { window in
                        try handOver(
                            reason, from: UnsafeRawBufferPointer(rebasing: window[from...]),
                            rest: UnsafeRawBufferPointer(rebasing: chunk[take...]), handover, rest)
                    }
                    return
                }
                break
            }
        }
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            // Nothing to read: only the end can come with no bytes.
            if isLast { try handOver(.endOfInput, from: UnsafeRawBufferPointer(start: nil, count: 0), rest: nil, handover, rest) }
            return
        }
        accepted = chunkStart
        switch try scanWindow(base, chunk.count, isLast: isLast) {
        case .needMore:
            let keep = accepted
            rebaseWindow(at: keep, in: base)
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[keep...]))
            if carry.count > Self.maximumElementBytes { try handOverCarry(handover, rest) }
        case .handover(let reason):
            try handOver(reason, from: UnsafeRawBufferPointer(rebasing: chunk[accepted...]), rest: nil, handover, rest)
        }
    }

    private enum WindowOutcome {
        /// Every complete element was delivered; the window ends inside the next (from
        /// `accepted`).
        case needMore
        case handover(HandoverPoint.Reason)
    }

    /// Reads and delivers the elements of a window from `accepted` on.
    private func scanWindow(_ p: UnsafePointer<UInt8>, _ n: Int, isLast: Bool) throws -> WindowOutcome {
        columnCache = nil
        var first = true
        while true {
            if !(first && resumable) { unit.reset() }
            first = false
            resumable = false
            var cursor = UnitCursor(p: p, n: n, i: accepted, line: acceptedLine, lineStart: acceptedLineStart)
            switch cursor.scan(into: &unit) {
            case .complete:
                deliver(p)
                if let pendingError { throw pendingError }
                if unit.replacements > 0 {
                    replacedCount += unit.replacements
                    if firstReplacementOffset == nil, let first = unit.firstReplacement {
                        firstReplacementOffset = windowFileOffset + Int64(first)
                    }
                }
                scannedBytes += Int64(cursor.i - accepted)
                elementCount += 1
                accepted = cursor.i
                acceptedLine = cursor.line
                acceptedLineStart = cursor.lineStart
            case .needMore:
                return isLast ? .handover(.endOfInput) : .needMore
            case .handover(let reason):
                return .handover(reason)
            }
        }
    }

    /// Hands one element's events to the mapper.
    @inline(__always)
    private func deliver(_ p: UnsafePointer<UInt8>) {
        eventWindow = p
        defer { eventWindow = nil }
        let decoded = UnsafePointer(unit.arena.base)
        let events = unit.events.base
        let attributes = unit.attributes.base
        for e in 0..<unit.events.count {
            let event = events[e]
            eventLine = event.line
            eventPosition = event.position
            eventLineStart = event.lineStart
            let name = ElementName(bytes: UnsafeRawBufferPointer(start: p + event.nameStart, count: event.nameLength))
            if event.isStart {
                var slot = slots
                for k in event.firstAttribute..<(event.firstAttribute + event.attributeCount) {
                    let attribute = attributes[k]
                    let values = attribute.valueIsDecoded ? decoded : p
                    slot[0] = p + attribute.nameStart
                    slot[1] = p + attribute.nameEnd
                    slot[2] = nil
                    slot[3] = values + attribute.valueStart
                    slot[4] = values + attribute.valueEnd
                    slot += AttributeView.slotsPerAttribute
                }
                mapper.startElement(name, AttributeView(slots: slots, count: event.attributeCount, namesEndInSecondSlot: true), self)
            } else {
                mapper.endElement(name, self)
            }
            if pendingError != nil { return }
        }
    }

    // MARK: Windows

    /// Makes the next window start at offset `start` of the current one (at or before
    /// `accepted`): the line state at `accepted` carries over, its column anchored at `accepted`
    /// itself (between two elements), wherever the window starts.
    private func rebaseWindow(at start: Int, in p: UnsafePointer<UInt8>) {
        if acceptedLineStart >= start {
            acceptedLineStart -= start
        } else {
            columnAnchor = (accepted - start, acceptedPosition(p).column - 1)
            acceptedLineStart = -1
        }
        windowFileOffset += Int64(start)
        accepted -= start
        columnCache = nil
    }

    /// The position of `accepted` in the window `p`, as libxml2 counts it.
    private func acceptedPosition(_ p: UnsafePointer<UInt8>?) -> (line: Int, column: Int) {
        guard let p else { return (acceptedLine, acceptedLineStart >= 0 ? 1 : columnAnchor.characters + 1) }
        let column =
            acceptedLineStart >= 0
            ? 1 + ColumnCounter.characters(p, from: acceptedLineStart, to: accepted)
            : 1 + columnAnchor.characters + ColumnCounter.characters(p, from: columnAnchor.offset, to: accepted)
        return (acceptedLine, column)
    }

    /// Hands the document over from `accepted`: `first` is the window from there on, `second`
    /// the chunk bytes after the window (when the window is the carry).
    private func handOver(
        _ reason: HandoverPoint.Reason, from first: UnsafeRawBufferPointer, rest second: UnsafeRawBufferPointer?,
        _ handover: (HandoverPoint) throws -> Void, _ rest: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        // `first` starts at `accepted`: the position there is the window's, measured up to it.
        let window = first.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) - accepted }
        let position = acceptedPosition(window)
        let point = HandoverPoint(
            reason: reason, line: position.line, column: position.column, fileOffset: windowFileOffset + Int64(accepted))
        self.handover = point
        try handover(point)
        // In pieces of the reader's chunk size, as a libxml2-only read is fed.
        for piece in [first, second ?? UnsafeRawBufferPointer(start: nil, count: 0)] {
            var offset = 0
            while offset < piece.count {
                let length = min(piece.count - offset, ExportReader.chunkSize)
                try rest(UnsafeRawBufferPointer(rebasing: piece[offset..<(offset + length)]))
                offset += length
            }
        }
    }

    /// Hands over from the start of the carry, the window (`.limit`: an element too large to hold).
    private func handOverCarry(_ handover: (HandoverPoint) throws -> Void, _ rest: (UnsafeRawBufferPointer) throws -> Void) throws {
        let window = carry
        carry = []
        work = []
        try window.withUnsafeBytes { try handOver(.limit, from: $0, rest: nil, handover, rest) }
    }
}
