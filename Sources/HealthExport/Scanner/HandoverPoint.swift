/// Where, and why, the scanner hands the rest of a document to libxml2.
///
/// The point is always between two top-level elements (after the last one delivered), so
/// libxml2, paused since the root's start tag, continues with no element open but the root,
/// and reports what follows (an error, with its own message and position) exactly as a
/// libxml2-only read would.
struct HandoverPoint: Equatable {
    enum Reason: String, Equatable, Sendable {
        /// `</HealthData>`: the body ended. Every complete document ends this way.
        case rootEnd
        /// The input ended inside the body (a cut-off export): libxml2 says where.
        case endOfInput
        /// Markup the scanner leaves to libxml2: a comment, processing instruction, CDATA
        /// section, or anything not a start or end tag.
        case markup
        /// Text that is not white space, or white space the scanner does not take (carriage
        /// returns, repaired control characters).
        case text
        /// A name outside the scanner's ASCII subset, or with a prefix (namespaces).
        case name
        /// An attribute value the scanner does not decode (an entity other than the five, a
        /// reference the pre-filter does not judge, a carriage return, `<`).
        case attributeValue
        /// Not well-formed as far as the scanner can tell (a missing `=`, a mismatched end tag,
        /// a repeated attribute): libxml2 reports the error.
        case malformed
        /// Beyond the scanner's bounds: depth, attributes per element, element size.
        case limit
    }

    var reason: Reason
    /// The position of the first byte handed over (1-based), as libxml2 counts it.
    var line: Int
    var column: Int
    /// Its offset in the file.
    var fileOffset: Int64
}
