/// The chain every read of an export's XML runs, built here and nowhere else: the pre-filter
/// (repairs bytes XML forbids, blanks the DTD, finds the export version), the parser, and the
/// mapper (elements to model objects). The sequential read and each chunk of a parallel read
/// push bytes through one.
///
/// Two parsers sit behind it (`ExportXMLParser`):
/// - **libxml2**, behind the pre-filter, reads everything on the reference path, and on the
///   scanner path the prolog, the root's start tag, and whatever the scanner hands back;
/// - **healthport's scanner** (`ExportBodyScanner`) reads the body from just after the root's
///   start tag, repairing bytes itself, until `</HealthData>` or the first element it does not
///   take, where it hands the rest of the document to libxml2 behind a fresh pre-filter.
///
/// A fragment (no `HealthData` root) is read by libxml2 alone, as is a root start tag longer
/// than the prolog's bound.
final class ExportParseChain {
    let mapper: ExportMapper
    let parser: SAXParser
    /// The parser asked for.
    let parserChoice: ExportXMLParser
    /// The pre-filter of the prolog and the root's start tag — and of everything else on the
    /// libxml2 path.
    @exclusivity(unchecked) private(set) var filter: XMLPreFilter
    /// The pre-filter of what the scanner handed back.
    @exclusivity(unchecked) private var restFilter: XMLPreFilter? = nil
    /// The scanner, once the body began on the scanner path.
    private(set) var scanner: ExportBodyScanner? = nil
    /// Whether a synthetic root the pre-filter inserts (a fragment) moves the mapper's columns:
    /// only a read from the document's start sees one.
    private let tracksSyntheticRoot: Bool

    private enum Stage {
        /// Before the root element: the pre-filter looks for it.
        case prolog
        /// The root's start tag is being collected, for libxml2.
        case rootTag
        case scanning
        /// Everything else goes to libxml2, through `restFilter` if the scanner handed over,
        /// else through `filter`.
        case libxml2
    }
    private var stage: Stage
    private var rootTag: [UInt8] = []

    init(
        mapper: ExportMapper, filter: XMLPreFilter, tracksSyntheticRoot: Bool = true, parser parserChoice: ExportXMLParser = .scanner
    ) {
        self.mapper = mapper
        self.filter = filter
        self.parser = SAXParser(handler: mapper)
        self.tracksSyntheticRoot = tracksSyntheticRoot
        self.parserChoice = parserChoice
        stage = parserChoice == .scanner ? .prolog : .libxml2
    }

    /// Pushes the next bytes of the document through the chain (`isLast` with the end).
    func push(_ bytes: UnsafeRawBufferPointer, isLast: Bool) throws {
        switch stage {
        case .libxml2:
            try pushToLibXML2(bytes, isLast: isLast)
        case .prolog:
            let mapper = self.mapper
            let parser = self.parser
            let tracksSyntheticRoot = self.tracksSyntheticRoot
            let progress = try filter.processProlog(bytes, isLast: isLast) { ready, findings in
                if tracksSyntheticRoot, mapper.syntheticRootPosition == nil, let syntheticRoot = findings.syntheticRootPosition {
                    mapper.syntheticRootPosition = syntheticRoot
                }
                if let version = findings.exportVersion { mapper.exportVersion = version }
                try parser.feed(ready)
            }
            switch progress {
            case .needMore:
                break
            case .fragment:
                stage = .libxml2
            case .body(let rest):
                stage = .rootTag
                try rest.withUnsafeBytes { try pushRootTag($0, isLast: isLast) }
            }
        case .rootTag:
            try pushRootTag(bytes, isLast: isLast)
        case .scanning:
            try pushToScanner(bytes, isLast: isLast)
        }
    }

    /// Collects the root's start tag, hands it to libxml2, and starts the scanner after it.
    private func pushRootTag(_ bytes: UnsafeRawBufferPointer, isLast: Bool) throws {
        rootTag.append(contentsOf: bytes)
        guard let end = Self.startTagEnd(rootTag) else {
            if isLast || rootTag.count > XMLPreFilter.maximumPrologLength {
                // Not a start tag the chain can find: libxml2 reads it all and says what it is.
                stage = .libxml2
                let collected = rootTag
                rootTag = []
                try collected.withUnsafeBytes { try pushToLibXML2($0, isLast: isLast) }
            }
            return
        }
        let collected = rootTag
        rootTag = []
        try collected.withUnsafeBytes { all in
            try pushToLibXML2(UnsafeRawBufferPointer(rebasing: all[0..<end]), isLast: false)
            let body = UnsafeRawBufferPointer(rebasing: all[end...])
            // libxml2 delivers the root's start as soon as it has the whole tag; the scanner
            // starts if that left the root, and nothing else, open, and the pre-filter passed
            // every byte of the tag on. (It can hold the tag's last bytes: `locale="x\u{F0}">`
            // waits for a fourth byte. Those were lost when the scanner started, and libxml2
            // saw a tag without its end. Found by `Fuzz/scanner`;
            // `Fuzz/regressions/scanner/root-tag-held-by-the-pre-filter.xml`.)
            guard parser.pendingError == nil, !filter.isHoldingBytes, mapper.isInsideRootOnly else {
                stage = .libxml2
                return try pushToLibXML2(body, isLast: isLast)
            }
            scanner = ExportBodyScanner(mapper: mapper, fileOffset: filter.nextOffset, line: parser.line, column: parser.column)
            stage = .scanning
            try pushToScanner(body, isLast: isLast)
        }
    }

    /// Where the start tag at the beginning of `bytes` ends (after its `>`), `nil` if it has not
    /// ended yet or is no start tag. A `>` inside a quoted value does not end it.
    static func startTagEnd(_ bytes: [UInt8]) -> Int? {
        var i = 1
        while i < bytes.count {
            switch bytes[i] {
            case 0x22, 0x27:
                let quote = bytes[i]
                i += 1
                while i < bytes.count && bytes[i] != quote { i += 1 }
            case 0x3E:
                return i + 1
            case 0x3C:
                return nil
            default:
                break
            }
            i += 1
        }
        return nil
    }

    private func pushToScanner(_ bytes: UnsafeRawBufferPointer, isLast: Bool) throws {
        guard let scanner else { return }
        let parser = self.parser
        try scanner.feed(
            bytes, isLast: isLast,
            handover: { point in
                parser.resume(atLine: point.line, column: point.column)
                restFilter = XMLPreFilter(continuingBodyAt: point.fileOffset, exportVersion: filter.exportVersion)
            },
            rest: { piece in
                try restFilter?.process(piece, isLast: false) { ready, _ in try parser.feed(ready) }
            })
        if scanner.handover != nil {
            stage = .libxml2
            if isLast { try pushToLibXML2(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true) }
        }
    }

    private func pushToLibXML2(_ bytes: UnsafeRawBufferPointer, isLast: Bool) throws {
        let mapper = self.mapper
        let parser = self.parser
        if restFilter != nil {
            try restFilter!.process(bytes, isLast: isLast) { ready, _ in try parser.feed(ready) }
            return
        }
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
    var pendingError: (any Error)? { scanner?.pendingError ?? parser.pendingError }

    // MARK: What the read found

    /// Bytes repaired by the pre-filters and the scanner, and the file offset of the first.
    var replacedCount: Int {
        filter.replacedCount + (scanner?.replacedCount ?? 0) + (restFilter?.replacedCount ?? 0)
    }

    var firstReplacementOffset: Int64? {
        filter.firstReplacementOffset ?? scanner?.firstReplacementOffset ?? restFilter?.firstReplacementOffset
    }

    /// How the body was read; lines as the mapper reports them (`lineOffset` applied).
    var parsing: ExportReader.Parsing {
        ExportReader.Parsing(
            requested: parserChoice, scannedBytes: scanner?.scannedBytes ?? 0, scannedElements: scanner?.elementCount ?? 0,
            handover: scanner?.handover.map {
                ExportReader.Parsing.Handover(reason: $0.reason.rawValue, line: $0.line + mapper.lineOffset)
            })
    }
}

extension ExportMapper {
    /// Whether the root element is open and nothing inside it: where the scanner can start.
    var isInsideRootOnly: Bool {
        stack.count == 1 && genericStack.isEmpty && skipDepth == 0
    }
}
