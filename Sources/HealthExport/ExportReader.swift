import Foundation
import HealthConnect
import HealthModel
import ZIPFoundation

/// Reads one Apple Health export and streams it to a sink: the public entry point of this module.
///
/// The input is a zip (as the Health app writes it, or re-zipped by Finder), an unzipped folder,
/// a bare `export.xml`, or standard input holding either. What it is, and which file inside is
/// the export document, is decided by content: names are localized (`exportar.xml`, `导出.xml`)
/// and zips get renamed. A zip is read as a stream of inflated chunks, never extracted; a zip on
/// standard input is first spooled to a private temporary file (mode 0600, unlinked at once),
/// because its directory is at its end.
///
/// Parsing is libxml2's push parser behind `XMLPreFilter`; memory holds one chunk, the current
/// object, and the interners, whatever the export's size. With `jobs` above one, a zip is
/// inflated on a thread of its own; `readInParallel` (Parallel/) also parses on several.
///
/// For example:
/// ```swift
/// let reader = try ExportReader(.path("export.zip"))
/// let summary = try reader.read(into: mySink)
/// ```
public final class ExportReader {
    public let input: ExportInput
    public private(set) var layout: ExportLayout

    /// The chunk size handed to libxml2. Large enough to amortize calls, small enough to stay in
    /// cache.
    public static let chunkSize = 256 * 1024

    enum Source {
        case file(path: String)
        case standardInputXML(prefix: [UInt8])
        /// The archive (its entries listed), the document's entry, and the document's bounded
        /// inflate (`ZipDocumentStream`: nothing in a zip is inflated by the library).
        case zip(Archive, Entry, ZipDocumentStream)
        /// healthport's own NDJSON, from a file or standard input (`NDJSONObjectReader`).
        case ndjsonFile(path: String)
        case standardInputNDJSON(prefix: [UInt8])
        /// A zip whose end (the central directory) is missing: only `--salvage` reads it.
        case cutOffZip(CutOffZip)
        /// An XML document in memory, pushed in pieces of `chunkSize` bytes (tests, fuzzing).
        case documentBytes([UInt8], chunkSize: Int)
        /// A Health Connect database, open (`HealthConnectOpening.swift`).
        case healthConnect(HealthConnectReader)
    }

    /// Threads the read may use (the CLI's `--jobs`, by default the cores). With two or more, a
    /// zip is inflated on one thread while the document is parsed on another.
    public var jobs = 1

    /// The parser of the document's body: healthport's scanner, or libxml2 alone (the
    /// reference). Both read the same objects, uuids, warnings and errors. Set by whoever
    /// opens the reader, from the face's options (never from ambient state: a task-local once
    /// held it, and the assistant's tool calls, on threads that do not see task-locals, read
    /// with the scanner under `--parser libxml2`).
    public var parser: ExportXMLParser = .scanner

    /// The most a zip entry may expand (`Opening.maximumExpansion`).
    let maximumExpansion: UInt64

    var source: Source
    var consumed = false
    /// The zip's side files, on a descriptor of their own, so they can be read while the
    /// document streams.
    var zipSideFiles: ZipSideFiles?
    /// Serialises side-file reads (``attachment(_:)``).
    let attachmentLock = NSLock()
    /// The side files this reader's gates let out (`sideFile(_:)`).
    let disclosedSideFiles = DisclosedSideFiles()
    /// The descriptor a streamed input is read from: standard input, or a FIFO or device named
    /// by path.
    var streamDescriptor: Int32 = 0

    deinit {
        if streamDescriptor > 2 { close(streamDescriptor) }
    }

    /// Opens the input and finds the export document.
    ///
    /// - Throws: `ExportError` with `.inputNotFound` (missing or unreadable, saying which:
    ///   no such file, permission, a path too long, a link loop, a part that is not a folder;
    ///   or a FIFO no program opened for writing within `opening.writerWait`), `.notAnExport`
    ///   (also: several export documents in a zip or folder, none named `export.xml`), or
    ///   `.malformedArchive`; `CancellationError` when `opening.isCancelled` while waiting.
    public convenience init(_ input: ExportInput) throws {
        try self.init(input, opening: Opening())
    }

    /// Opens the input as `opening` says (how long to wait for a FIFO's writer, and what
    /// cancels the wait) and finds the export document.
    public init(_ input: ExportInput, opening: Opening) throws {
        self.input = input
        maximumExpansion = opening.maximumExpansion
        // A path that cannot seek (a FIFO, `<(unzip -p …)`, `/dev/stdin`, a character device) is
        // read as a stream, like standard input: sniffing its format consumes its first bytes,
        // which are then replayed, where reopening the path would have lost them.
        var streamPath: String? = nil
        var kind = InputKind.regular
        if case .path(let path) = input {
            kind = try InputKind.of(path)
            if kind == .stream { streamPath = path }
        }
        var pending: [UInt8] = []
        // Closed here when the init throws (deinit runs only for a reader that was made).
        var toClose = -1 as Int32
        defer { if toClose >= 0 { close(toClose) } }
        if let streamPath {
            (streamDescriptor, pending) = try StreamOpening.open(streamPath, opening: opening)
            toClose = streamDescriptor
        }
        switch streamPath.map({ _ in ExportInput.standardInput }) ?? input {
        case .standardInput:
            let stdin = FileByteSource(descriptor: streamDescriptor, ownsDescriptor: false, pending: pending)
            let prefix = try stdin.readPrefix(4096)
            if ContentSniffer.isZip(prefix) {
                let url = try Self.spool(prefix: prefix, rest: stdin)
                defer { unlink(url.path) }
                let healthConnect = try Self.openHealthConnectZip(url: url, displayName: input.displayName, maximumExpansion: opening.maximumExpansion)
                if let opened = healthConnect.opened {
                    (source, layout) = opened
                } else {
                    do {
                        (source, layout) = try Self.openZip(url: url, displayName: input.displayName, maximumExpansion: opening.maximumExpansion)
                    } catch let error as ExportError where error.code == .noExportDocument && healthConnect.refusal != nil {
                        throw healthConnect.refusal!
                    }
                    zipSideFiles = ZipSideFiles(path: url.path)
                }
            } else if HealthConnectReader.isSQLite(prefix) {
                let path = try Self.spoolStandardInput(prefix: prefix, rest: stdin)
                defer { unlink(path) }
                source = .healthConnect(try Self.openHealthConnect(path: path, location: SourceLocation(file: input.displayName)))
                layout = ExportLayout(container: .healthConnect, documentPath: nil, exportRoot: "", sideFiles: [], documentSize: nil)
            } else if NDJSONObjectReader.recognizes(prefix) {
                source = .standardInputNDJSON(prefix: prefix)
                layout = ExportLayout(container: .ndjson, documentPath: nil, exportRoot: "", sideFiles: [], documentSize: nil)
            } else if ContentSniffer.looksLikeXML(prefix) {
                source = .standardInputXML(prefix: prefix)
                layout = ExportLayout(container: .xml, documentPath: nil, exportRoot: "", sideFiles: [], documentSize: nil)
            } else {
                throw ExportError(
                    .notAnExport,
                    prefix.isEmpty
                        ? "empty input: no Apple Health export (nothing was written to standard input)"
                        : "not an Apple Health export (neither a zip, XML nor healthport NDJSON)",
                    at: SourceLocation(file: input.displayName))
            }
        case .path(let path):
            if kind == .folder {
                (source, layout) = try Self.openFolder(path)
            } else {
                let file = try FileByteSource.opening(path)
                let prefix = try file.readPrefix(4096)
                var healthConnect = HealthConnectZip()
                if ContentSniffer.isZip(prefix) {
                    healthConnect = try Self.openHealthConnectZip(
                        url: URL(fileURLWithPath: path), displayName: path, maximumExpansion: opening.maximumExpansion)
                }
                if let opened = healthConnect.opened {
                    (source, layout) = opened
                } else if HealthConnectReader.isSQLite(prefix) {
                    source = .healthConnect(try Self.openHealthConnect(path: path, location: SourceLocation(file: path)))
                    layout = ExportLayout(container: .healthConnect, documentPath: nil, exportRoot: "", sideFiles: [], documentSize: FileSize.of(path))
                } else if ContentSniffer.isZip(prefix) {
                    do {
                        (source, layout) = try Self.openZip(url: URL(fileURLWithPath: path), displayName: path, maximumExpansion: opening.maximumExpansion)
                        zipSideFiles = ZipSideFiles(path: path)
                    } catch let error as ExportError where error.code == .noExportDocument && healthConnect.refusal != nil {
                        // A database that is not Health Connect's, and no Apple export beside it.
                        throw healthConnect.refusal!
                    } catch let error as ExportError where error.code == .malformedArchive {
                        // Only a zip without a readable central directory is cut off; any other
                        // refusal stands.
                        guard ZipDirectory(path: path) == nil, let cutOff = CutOffZip(path: path) else { throw error }
                        source = .cutOffZip(cutOff)
                        layout = ExportLayout(
                            container: .zip, documentPath: cutOff.document.name,
                            exportRoot: cutOff.document.name.split(separator: "/").dropLast().joined(separator: "/"), sideFiles: [],
                            documentSize: nil)
                    }
                } else if NDJSONObjectReader.recognizes(prefix) {
                    source = .ndjsonFile(path: path)
                    let size = FileSize.of(path)
                    layout = ExportLayout(container: .ndjson, documentPath: nil, exportRoot: "", sideFiles: [], documentSize: size)
                } else if ContentSniffer.looksLikeXML(prefix) {
                    source = .file(path: path)
                    let size = FileSize.of(path)
                    layout = ExportLayout(
                        container: .xml, documentPath: nil, exportRoot: "", sideFiles: Self.sideFilesBeside(path), documentSize: size)
                } else {
                    throw ExportError(
                        .notAnExport,
                        prefix.isEmpty
                            ? "empty file: no Apple Health export (0 bytes; an export still being copied or downloaded?)"
                            : "not an Apple Health export (neither a zip, a folder, XML nor healthport NDJSON)",
                        at: SourceLocation(file: path))
                }
            }
        }
        toClose = -1
    }

    /// A reader of an XML document held in memory, pushed through the parse chain in pieces of
    /// `chunkSize` bytes: for the tests and fuzz harnesses that compare the two parsers, where
    /// the pieces' ends are part of what is tested (`ParserDifferential`). Diagnostics name
    /// the document `displayName`.
    package init(documentBytes: [UInt8], chunkSize: Int = ExportReader.chunkSize, displayName: String = "export.xml") {
        input = .path(displayName)
        maximumExpansion = ZipLimits.defaultRatio
        source = .documentBytes(documentBytes, chunkSize: max(1, chunkSize))
        layout = ExportLayout(
            container: .xml, documentPath: nil, exportRoot: "", sideFiles: [], documentSize: Int64(documentBytes.count))
    }

    /// How diagnostics locate the document: the path given, plus the member inside a zip or folder.
    public var documentLocation: SourceLocation {
        SourceLocation(file: input.displayName, member: layout.documentPath)
    }

    /// Progress of a read, reported once per chunk.
    public struct Progress: Sendable {
        /// Bytes of the export document read so far (uncompressed).
        public var bytesRead: Int64
        /// The document's size, when known.
        public var totalBytes: Int64?
        /// Objects the read's gate let through so far.
        public var admitted = 0

        init(bytesRead: Int64, totalBytes: Int64?) {
            self.bytesRead = bytesRead
            self.totalBytes = totalBytes
        }
    }

    /// What a read found besides the objects.
    public struct Summary: Sendable {
        /// The header as the reader read it: a run shows it through its query
        /// (`QueryExecutor.header(_:)`).
        public var header: ExportHeader
        /// Every object read, hidden ones included (a fact about the export, `Disclosure`).
        public var objectCount: Int
        /// The objects the read's gate let through.
        public var admitted = 0
        /// Bytes XML forbids that were replaced to keep parsing (quirk Q2).
        public var replacedByteCount: Int
        /// Whether the document was a fragment without a `HealthData` root.
        public var isFragment: Bool
        /// Unknown elements and attributes passed through, by name (`Foo`, `Record@bar`).
        public var passedThrough: [String: Int]
        /// Every warning kind met, in first-seen order, with its count.
        public var warnings: [(warning: ExportWarning, count: Int)]
        /// How a parallel read went (`nil` for a sequential one).
        public var parallel: ParallelStatistics? = nil
        /// Where the first replaced byte was, in the document.
        public var firstReplacementOffset: Int64? = nil
        /// With `salvage`: where a broken export stopped being readable. The objects before it
        /// were delivered; the one the break cut was not.
        public var salvageStop: ExportError? = nil
        /// Which parser read the body, and how much of it.
        public var parsing = Parsing(requested: .libxml2)
    }

    /// How the body of `export.xml` was read: by healthport's scanner up to where it handed the
    /// rest to libxml2, if it did before the document's end.
    public struct Parsing: Sendable, Equatable {
        /// Where the scanner handed the rest of the document to libxml2.
        public struct Handover: Sendable, Equatable {
            /// `rootEnd` (the body ended: the usual end), `endOfInput`, `markup`, `text`,
            /// `name`, `attributeValue`, `malformed` or `limit` (`HandoverPoint.Reason`).
            public var reason: String
            /// The line it happened at.
            public var line: Int
        }

        public var requested: ExportXMLParser
        /// Bytes of the body, and top-level elements, the scanner read.
        public var scannedBytes: Int64 = 0
        public var scannedElements = 0
        /// Where the scanner handed over (`nil`: it did not read, or read to the end of the input).
        public var handover: Handover? = nil

        /// Whether libxml2 read part of the body: the scanner stopped before the body's end.
        public var fellBack: Bool {
            guard requested == .scanner else { return false }
            guard let handover else { return true }
            return handover.reason != "rootEnd"
        }

        /// Adds the next part of a read cut in parts (a parallel read's chunks, each closed by a
        /// synthetic `</HealthData>`): the first handover other than the body's end is kept,
        /// its line moved by `lineOffset` to the file's.
        mutating func absorb(_ part: Parsing, lineOffset: Int) {
            scannedBytes += part.scannedBytes
            scannedElements += part.scannedElements
            guard var next = part.handover, handover == nil || handover?.reason == "rootEnd" else { return }
            next.line += lineOffset
            handover = next
        }
    }

    /// Whether the input is a zip that was cut off (readable only with `salvage`).
    public var isCutOff: Bool {
        if case .cutOffZip = source { return true }
        return false
    }

    /// Streams every object to `sink`, in document order.
    ///
    /// - Parameters:
    ///   - warning: called once per kind of warning, when it is first met.
    ///   - progress: called after each chunk.
    /// - Throws: `ExportError` for bad input (located), or the sink's own error unchanged.
    ///   - types: when given, top-level objects of other types are skipped without being built
    ///     (their uuids, and those of the objects read, are the same as in a full read).
    ///   - salvage: read a broken export (cut off, or not well-formed further on) up to the
    ///     break: the objects before it are delivered and the break is returned in
    ///     `Summary.salvageStop` instead of thrown.
    ///
    /// Ungated: every object the document holds. Only this module calls it, behind a gate
    /// (`read(_:into:…)`); see `ExportReader+Gate.swift`.
    func readUngated(
        into sink: any ObjectSink, warning: @escaping (ExportWarning) -> Void = { _ in },
        progress: ((Progress) -> Void)? = nil, types: Set<String>? = nil, salvage: Bool = false
    ) throws -> Summary {
        guard !consumed else { throw ExportError(.ioError, "the export was already read (standard input can be read once)") }
        consumed = true
        let warnings = WarningCollector(handler: warning)
        let location = documentLocation
        switch source {
        case .ndjsonFile(let path):
            let file = try FileByteSource.opening(path)
            return try readNDJSON(file, prefix: [], into: sink, types: types, progress: progress, warnings: warnings)
        case .standardInputNDJSON(let prefix):
            return try readNDJSON(
                FileByteSource(descriptor: streamDescriptor, ownsDescriptor: false), prefix: prefix, into: sink, types: types, progress: progress,
                warnings: warnings)
        case .healthConnect(let reader):
            return try readHealthConnect(reader, into: sink, types: types)
        default:
            break
        }
        let mapper = ExportMapper(sink: sink, warnings: warnings, file: location.file, member: location.member)
        mapper.typeFilter = types
        mapper.clinicalTypes = makeClinicalTypeResolver()
        return try readXML(mapper: mapper, filter: XMLPreFilter(), warnings: warnings, salvage: salvage, progress: progress) { push in
            switch source {
            case .file(let path):
                let file = try FileByteSource.opening(path)
                try stream(file, prefix: [], push: push)
            case .standardInputXML(let prefix):
                try stream(FileByteSource(descriptor: streamDescriptor, ownsDescriptor: false), prefix: prefix, push: push)
            case .ndjsonFile, .standardInputNDJSON:
                preconditionFailure("NDJSON is read by readNDJSON")
            case .healthConnect:
                preconditionFailure("a Health Connect database is read by readHealthConnect")
            case .documentBytes(let bytes, let chunkSize):
                try bytes.withUnsafeBytes { all in
                    var offset = 0
                    while offset < all.count {
                        let end = min(all.count, offset + chunkSize)
                        try push(UnsafeRawBufferPointer(rebasing: all[offset..<end]), false)
                        offset = end
                    }
                }
                try push(UnsafeRawBufferPointer(start: nil, count: 0), true)
            case .cutOffZip(let zip):
                guard salvage else {
                    let size = FileSize.of(zip.path) ?? 0
                    throw ExportError(
                        .malformedArchive,
                        "the zip archive is cut off after byte \(size) (its end, with the directory of its contents, is missing); \(argument: .salvage) converts the objects before the cut",
                        at: location)
                }
                _ = try zip.stream(chunkSize: Self.chunkSize) { try push($0, false) }
                try push(UnsafeRawBufferPointer(start: nil, count: 0), true)
            case .zip(_, _, let document):
                let inflate: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void = { emit in
                    try document.stream(chunkSize: Self.chunkSize, location: location, emit)
                }
                if jobs > 1 {
                    try Self.onAnotherThread(inflate) { try push($0, false) }
                } else {
                    try inflate { try push($0, false) }
                }
                try push(UnsafeRawBufferPointer(start: nil, count: 0), true)
            }
        }
    }

    /// Parses XML that `feed` pushes (through the pre-filter, into libxml2, to `mapper`), and
    /// sums up the read. Shared by the sequential read and the parallel read's sequential part.
    func readXML(
        mapper: ExportMapper, filter initialFilter: XMLPreFilter, warnings: WarningCollector, salvage: Bool,
        progress: ((Progress) -> Void)?, progressBase: Int64 = 0, replacedBefore: Int = 0, firstReplacementBefore: Int64? = nil,
        reportsReplacements: Bool = true, feed: (_ push: (UnsafeRawBufferPointer, Bool) throws -> Void) throws -> Void
    ) throws -> Summary {
        let location = documentLocation
        let chain = ExportParseChain(mapper: mapper, filter: initialFilter, parser: parser)
        var bytesRead: Int64 = progressBase
        let total = layout.documentSize

        func push(_ chunk: UnsafeRawBufferPointer, isLast: Bool) throws {
            try chain.push(chunk, isLast: isLast)
            bytesRead += Int64(chunk.count)
            progress?(Progress(bytesRead: bytesRead, totalBytes: total))
        }

        do {
            try feed { try push($0, isLast: $1) }
            try chain.finish()
            if let error = chain.pendingError { throw error }
        } catch let error as XMLSyntaxError {
            let located = ExportError(
                .malformedXML, error.explained(shiftingLinesBy: mapper.lineOffset, unmoved: mapper.prologLines),
                at: mapper.location(chain.parser).with(line: error.line + mapper.lineOffset, column: correctedColumn(error, chain.filter)))
            guard salvage else { throw located }
            return salvaged(located, mapper: mapper, chain: chain, warnings: warnings)
        } catch var error as ExportError {
            if error.location == nil { error.location = location }
            let salvageable: Set<ExportError.Code> = [.malformedXML, .invalidAttribute, .malformedArchive, .limitExceeded]
            guard salvage, salvageable.contains(error.code) else { throw error }
            return salvaged(error, mapper: mapper, chain: chain, warnings: warnings)
        }
        let filter = chain.filter

        let replacedCount = replacedBefore + chain.replacedCount
        if replacedCount > 0 && reportsReplacements {
            warnings.warn(
                "replacedBytes",
                "replaced \(replacedCount) byte(s) that XML forbids (first at byte offset \(firstReplacementBefore ?? chain.firstReplacementOffset ?? 0)); values containing them differ from the export",
                at: location)
        }
        var isFragment = false
        if case .fragment? = filter.document {
            isFragment = true
            warnings.warn(
                "fragment", "the document has no <HealthData> root; read as a sequence of export elements",
                at: location)
        }
        var header = mapper.header
        header.exportVersion = filter.exportVersion
        var summary = Summary(
            header: header, objectCount: mapper.objectCount, replacedByteCount: replacedCount,
            isFragment: isFragment, passedThrough: mapper.passedThrough, warnings: warnings.summary)
        summary.firstReplacementOffset = firstReplacementBefore ?? chain.firstReplacementOffset
        summary.parsing = chain.parsing
        return summary
    }

    /// Reads healthport's NDJSON: no XML, no repairs, the uuids as written.
    func readNDJSON(
        _ file: FileByteSource, prefix: [UInt8], into sink: any ObjectSink, types: Set<String>?,
        progress: ((Progress) -> Void)?, warnings: WarningCollector
    ) throws -> Summary {
        var reader = NDJSONObjectReader(location: documentLocation, types: types)
        var bytesRead: Int64 = 0
        try stream(file, prefix: prefix) { chunk, isLast in
            if isLast {
                try reader.finish(into: sink)
                return
            }
            try reader.feed(chunk, into: sink)
            bytesRead += Int64(chunk.count)
            progress?(Progress(bytesRead: bytesRead, totalBytes: layout.documentSize))
        }
        return Summary(
            header: reader.header, objectCount: reader.objectCount, replacedByteCount: 0, isFragment: false, passedThrough: [:],
            warnings: warnings.summary)
    }

    /// The summary of a salvaged read: what was delivered before `error`.
    func salvaged(_ error: ExportError, mapper: ExportMapper, chain: ExportParseChain, warnings: WarningCollector) -> Summary {
        var header = mapper.header
        header.exportVersion = chain.filter.exportVersion
        var summary = Summary(
            header: header, objectCount: mapper.objectCount, replacedByteCount: chain.replacedCount,
            isFragment: false, passedThrough: mapper.passedThrough, warnings: warnings.summary)
        summary.salvageStop = error
        summary.parsing = chain.parsing
        return summary
    }

    func correctedColumn(_ error: XMLSyntaxError, _ filter: XMLPreFilter) -> Int {
        if let root = filter.syntheticRootPosition, root.line == error.line, error.column > root.column {
            return max(root.column, error.column - XMLPreFilter.syntheticRootOpen.count)
        }
        return error.column
    }
}

extension SourceLocation {
    func with(line: Int, column: Int?) -> SourceLocation {
        var copy = self
        copy.line = line
        copy.column = column
        return copy
    }
}
