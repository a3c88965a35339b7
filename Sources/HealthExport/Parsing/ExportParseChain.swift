/// The chain every read of an export's XML runs, built here and nowhere else: the pre-filter
/// (repairs bytes XML forbids, blanks the DTD, finds the export version), the parser (libxml2's
/// `SAXParser` today; a second parser would be chosen here), and the mapper (elements to model
/// objects). The sequential read and each chunk of a parallel read push bytes through one.
final class ExportParseChain {
    let mapper: ExportMapper
    let parser: SAXParser
    @exclusivity(unchecked) private(set) var filter: XMLPreFilter
    /// Whether a synthetic root the pre-filter inserts (a fragment) moves the mapper's columns:
    /// only a read from the document's start sees one.
    private let tracksSyntheticRoot: Bool

    init(mapper: ExportMapper, filter: XMLPreFilter, tracksSyntheticRoot: Bool = true) {
        self.mapper = mapper
        self.filter = filter
        self.parser = SAXParser(handler: mapper)
        self.tracksSyntheticRoot = tracksSyntheticRoot
    }

    /// Pushes the next bytes of the document through the chain (`isLast` with the end).
    func push(_ bytes: UnsafeRawBufferPointer, isLast: Bool) throws {
        let mapper = self.mapper
        let parser = self.parser
        let tracksSyntheticRoot = self.tracksSyntheticRoot
        try filter.process(bytes, isLast: isLast) { ready, findings in
            if tracksSyntheticRoot, mapper.syntheticRootPosition == nil, let syntheticRoot = findings.syntheticRootPosition {
                mapper.syntheticRootPosition = syntheticRoot
            }
            if let version = findings.exportVersion { mapper.exportVersion = version }
            try parser.feed(ready)
        }
    }

    /// Ends the parse: the parser's last checks, then the header of an export without objects.
    func finish() throws {
        try parser.finish()
        mapper.finish(parser)
    }

    /// The error a handler stopped the parse with (a sink's own, or a bad value).
    var pendingError: (any Error)? { parser.pendingError }
}
