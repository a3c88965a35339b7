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
    struct Event {
        var isStart: Bool
        var nameStart: Int
        var nameLength: Int
        /// Index of the first attribute in `attributes`, and how many (start events only).
        var firstAttribute: Int
        var attributeCount: Int
        /// Window offset of the position, its line, and where that line starts in the window
        /// (-1: before the window).
        var position: Int
        var line: Int
        var lineStart: Int
    }

    /// An attribute: its name in the window, its value in the window or in `arena`.
    struct Attribute {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
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

    mutating func reset() {
        events.removeAll()
        attributes.removeAll()
        arena.removeAll()
        open.removeAll()
        replacements = 0
        firstReplacement = nil
    }
}
