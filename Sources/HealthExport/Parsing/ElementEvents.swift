/// The seam between a parser and the mapping: the events of an export's elements, in document
/// order, that libxml2's `SAXParser` delivers today and a purpose-built scanner can deliver
/// tomorrow, to the same handlers (`ExportMapper`, and the GPX and CDA readers).
///
/// What a parser must guarantee to its handler:
/// - names are local names (no prefix), as bytes;
/// - attribute values are normalized as XML 1.0 §3.3.3 says, the predefined entities and
///   character references replaced, valid UTF-8, each attribute once (`AttributeView`);
/// - every start has its end, in order; character data arrives only while the handler
///   `wantsCharacters` (possibly in pieces);
/// - name and attribute bytes live for the callback only;
/// - `line` and `column` are 1-based and describe the current event;
/// - after `stop(with:)` no further event arrives, and the parse ends by throwing that error.
protocol ElementEventSource: AnyObject {
    /// The current position (1-based).
    var line: Int { get }
    var column: Int { get }
    /// The error a handler stopped the parse with, if any: events still in flight are ignored.
    var pendingError: (any Error)? { get }
    /// Stops the parse after the current event; the parse then throws `error`.
    func stop(with error: any Error)
}

/// Receives a parser's element events; called on the parsing thread only.
protocol ElementEventHandler: AnyObject {
    func startElement(_ name: ElementName, _ attributes: AttributeView, _ parser: any ElementEventSource)
    func endElement(_ name: ElementName, _ parser: any ElementEventSource)
    /// Character data; only delivered while `wantsCharacters` is true.
    func characters(_ bytes: UnsafeRawBufferPointer, _ parser: any ElementEventSource)
    var wantsCharacters: Bool { get }
}
