/// One top-level element of the body, scanned and checked but not yet delivered: its start and
/// end events, its attributes, and the values that had to be decoded.
///
/// The scanner delivers a top-level element only once all of it is known to be well-formed in
/// the scanner's subset of XML; anything else is handed to libxml2 from the element's start
/// (`ExportBodyScanner`). Keeping the element as offsets into the window (and into `arena` for
/// decoded values) costs no copy of the document; the arrays are reused from one element to
/// the next, so the steady state allocates nothing.
struct ScannedUnit: ~Copyable {
    /// A start or end tag, with the position libxml2 reports during its callback: at the `>`
    /// or `/` that ends a start tag, after the `>` of an end tag or the `/>` of an empty one.
    ///
    /// Offsets into a window are stored in 32 bits (a window is a chunk, or an element of at
    /// most `ExportBodyScanner.maximumElementBytes` and a chunk), which halves what a large
    /// element's tokens take (a workout of 90,000 inline route points holds 180,000 events).
    struct Event {
        var isStart: Bool
        @WindowInt var nameStart: Int
        @WindowInt var nameLength: Int
        /// Index of the first attribute in `attributes`, and how many (start events only).
        @WindowInt var firstAttribute: Int
        @WindowInt var attributeCount: Int
        /// Window offset of the position.
        @WindowInt var position: Int
        /// The line of the position.
        var line: Int
        /// Where the position's line starts in the window (-1: before the window).
        @WindowInt var lineStart: Int
    }

    /// An attribute: its name in the window, its value in the window or in `arena` (32-bit
    /// offsets, as in `Event`).
    struct Attribute {
        @WindowInt var nameStart: Int
        @WindowInt var nameEnd: Int
        @WindowInt var valueStart: Int
        @WindowInt var valueEnd: Int
        var valueIsDecoded: Bool
    }

    /// A name in the window: where the open elements' names are, while scanning.
    struct Name {
        var start: Int
        var length: Int
    }

    var events = ScratchBuffer<Event>()
    var attributes = ScratchBuffer<Attribute>()
    /// Values that differed from their bytes in the document: references decoded, white space
    /// normalized (XML 1.0 §3.3.3), forbidden bytes repaired.
    var arena = ScratchBuffer<UInt8>(capacity: 4096)
    var open = ScratchBuffer<Name>()
    /// Repairs made in this element, committed when it is delivered.
    var replacements = 0
    var firstReplacement: Int? = nil

    /// Where the scan of an element the window cut can resume: the start of the last tag begun,
    /// and what had been read before it. An element that spans many chunks is then read once,
    /// not again from its start with every chunk (which cost its size squared over the chunk
    /// size: sixteen times an 8 MiB element in 256 KiB chunks).
    struct Checkpoint {
        var i: Int
        var line: Int
        var lineStart: Int
        var events: Int
        var attributes: Int
        var arena: Int
        var open: Int
        var replacements: Int
        var firstReplacement: Int?
    }
    var resume: Checkpoint? = nil

    /// Back to a checkpoint: what was read after it is forgotten. Between a checkpoint (taken
    /// at a tag's `<`) and the window's end only that tag is read: events, attributes and arena
    /// bytes are appended, and the open elements gain one (a start tag) or lose one (an end
    /// tag, whose name stays in the buffer until the next push, which only a later tag makes).
    mutating func restore(_ checkpoint: Checkpoint) {
        events.rewind(to: checkpoint.events)
        attributes.rewind(to: checkpoint.attributes)
        arena.rewind(to: checkpoint.arena)
        open.rewind(to: checkpoint.open)
        replacements = checkpoint.replacements
        firstReplacement = checkpoint.firstReplacement
    }

    mutating func reset() {
        events.removeAll()
        attributes.removeAll()
        arena.removeAll()
        open.removeAll()
        replacements = 0
        firstReplacement = nil
        resume = nil
    }
}
