import Foundation
import HealthModel

/// Reading one export on several cores (issue 11; `Benchmarks/run.sh`, task `ndjson-jobs2`).
///
/// The document is cut into chunks between top-level elements (`ChunkSplitter`); worker
/// threads parse each chunk, after a copy of the prolog, with a mapper of their own into a sink
/// of their own (`makeChunkSink`: the caller's filters and encoder, writing to memory); the
/// calling thread takes the chunks back in document order and hands each sink to `merge`. The
/// output is the sequential read's, byte for byte, because everything a chunk cannot know on
/// its own is checked or carried in order:
///
/// - **uuids** depend on the runs and duplicates before the chunk: each chunk's assigner
///   journals its objects, and `ObjectIdentityAssigner.continues(_:)` checks them against the
///   state the chunks before left;
/// - **warnings** are replayed in order, each kind reported once, lines moved to the file's;
/// - **the header** is chunk 0's.
///
/// Anything unusual — a chunk that does not parse on its own (a bad element, or a cut that fell
/// inside one), uuids a chunk could not derive alone, no boundary in 16 MiB — turns the read
/// sequential from that chunk on, with the real sink, so errors are the sequential read's too,
/// with the same location and after the same objects.
///
/// Memory: at most `jobs + 2` chunks and their outputs at once.
extension ExportReader {
    /// The chunk size for parallel reads: small enough that `jobs + 2` chunks and their
    /// encoded output stay well under the 64 MB memory goal, large enough that the copy of
    /// the prolog parsed before each is noise. 512 KiB: a two-core NDJSON conversion of the
    /// 4-year export peaks at 54.5 MiB instead of 64.2 with 1 MiB chunks, in the same time
    /// (paired runs, median wall ratio 0.99).
    public static let parallelChunkBytes = 1 << 19

    /// Whether `readInParallel` can split this input: an XML document in a file (bare, or in
    /// an unzipped folder) or in a zip file. Standard input, cut-off zips and NDJSON are read
    /// sequentially.
    public var canReadInParallel: Bool {
        switch source {
        case .file: return true
        case .zip: return true
        default: return false
        }
    }

    /// Reads the export with `jobs` threads; see the type's discussion. Falls back to `read`
    /// when the input cannot be split.
    ///
    /// - Parameters:
    ///   - sink: receives the header, and every object from where the read turns sequential.
    ///   - makeChunkSink: makes a sink for one chunk; called on worker threads.
    ///   - merge: takes a chunk's sink, in document order, on the calling thread.
    ///   - chunkBytes: for tests, which need many chunks from small files.
    func readInParallelUngated<ChunkSink: ObjectSink>(
        into sink: any ObjectSink, jobs: Int, makeChunkSink: @escaping @Sendable () -> ChunkSink,
        merge: (ChunkSink) throws -> Void, warning: @escaping (ExportWarning) -> Void = { _ in },
        progress: ((Progress) -> Void)? = nil, types: Set<String>? = nil, chunkBytes: Int = ExportReader.parallelChunkBytes
    ) throws -> Summary {
        guard jobs > 1, !consumed, canReadInParallel else {
            return try readUngated(into: sink, warning: warning, progress: progress, types: types)
        }
        let location = documentLocation
        // The document's bytes: read from the file, or inflated on a thread of their own.
        var inflating: ChunkPipe? = nil
        defer { inflating?.cancel() }
        let splitterSource: ChunkSplitter.Source
        switch source {
        case .file(let path):
            let file = try FileByteSource.opening(path)
            splitterSource = { try file.read(into: $0) }
        case .zip(_, _, let document):
            let pipe = Self.inflateOnAnotherThread(document, location: location)
            inflating = pipe
            let reader = PipeReader(pipe)
            splitterSource = { try reader.read(into: $0) }
        default:
            preconditionFailure("canReadInParallel admits files and zips")
        }
        // Not an export's prolog, or the input failed already: the sequential read says what
        // is wrong, exactly as it would.
        guard let splitter = (try? ChunkSplitter(source: splitterSource, chunkBytes: chunkBytes)) ?? nil else {
            inflating?.cancel()
            inflating = nil
            return try readUngated(into: sink, warning: warning, progress: progress, types: types)
        }
        consumed = true
        let warnings = WarningCollector(handler: warning)
        let workers = ChunkWorkers<ChunkSink>(
            jobs: jobs, prolog: splitter.prolog, prologLineBreaks: splitter.prologLineBreaks,
            prologReplacements: splitter.prologReplacements, location: location, types: types,
            clinicalTypes: makeClinicalTypeResolver(), parser: parser, makeSink: makeChunkSink)
        defer { workers.stop() }

        var assigner = ObjectIdentityAssigner()
        var header: ExportHeader? = nil
        var objectCount = 0
        var passedThrough: [String: Int] = [:]
        var replacedCount = 0
        var firstReplacement: Int64? = nil
        /// The file's line at the start of the next chunk to merge.
        var line = 1
        var nextToMerge = 0
        var dispatched = 0
        var splitterDone = false
        var sequentialFrom: Int64? = nil
        var statistics = ParallelStatistics()
        var parsing = Parsing(requested: parser)
        var headerDelivered = false

        merging: while true {
            while !splitterDone && dispatched - nextToMerge < jobs + 1 {
                let next: ChunkSplitter.Next
                do {
                    next = try splitter.next()
                } catch {
                    // The input failed (a damaged zip, a read error): the chunks before are
                    // merged, and the rest is read sequentially, which delivers what a
                    // sequential read delivers before the failure and then fails alike.
                    next = .unsplittable(offset: splitter.consumedOffset)
                }
                switch next {
                case .chunk(let chunk):
                    workers.submit(chunk)
                    dispatched += 1
                case .unsplittable(let offset):
                    splitterDone = true
                    if dispatched == nextToMerge {
                        sequentialFrom = offset
                        break merging
                    }
                    workers.finalOffset = offset
                case .end:
                    splitterDone = true
                }
            }
            if nextToMerge == dispatched {
                if let offset = workers.finalOffset { sequentialFrom = offset }
                break
            }
            let result = workers.result(nextToMerge)
            guard result.parsed else {
                sequentialFrom = result.offset
                break
            }
            if result.index == 0 { header = result.header }
            // The sink gets the header when the first object begins, as in a sequential read
            // (an export that breaks before its first object never delivers one).
            if !headerDelivered, result.headerDeliveredByElement, let header {
                try sink.exportDidBegin(header)
                headerDelivered = true
            }
            if assigner.continues(result.steps) {
                warnings.absorb(result.warnings, lineOffset: line - 1)
                assigner.advance(over: result.steps)
                try merge(result.sink)
                objectCount += result.objectCount
                ExportMapper.mergePassedThrough(&passedThrough, result.passedThrough)
                replacedCount += result.replacedCount
                if firstReplacement == nil { firstReplacement = result.firstReplacement }
                parsing.absorb(result.parsing, lineOffset: line - 1)
                statistics.merged += 1
            } else {
                // The chunk needed what came before it (a duplicate of an object in an earlier
                // chunk): read it again here, with the real sink and the assigner carried along.
                let (summary, mapper) = try readSequentially(
                    from: result.offset, chunk: result.bytes, closed: !result.isLast, line: line,
                    prolog: splitter.prolog, prologLineBreaks: splitter.prologLineBreaks, sink: sink, types: types,
                    assigner: assigner, header: header, headerDelivered: headerDelivered, objectCount: objectCount,
                    warnings: warnings, progress: nil, replacedBefore: -splitter.prologReplacements)
                assigner = mapper.assigner
                headerDelivered = mapper.hasDeliveredHeader
                objectCount = mapper.objectCount
                ExportMapper.mergePassedThrough(&passedThrough, summary.passedThrough)
                replacedCount += summary.replacedByteCount
                if firstReplacement == nil { firstReplacement = summary.firstReplacementOffset }
                parsing.absorb(summary.parsing, lineOffset: 0)
                statistics.reread += 1
            }
            line += result.lineBreaks
            nextToMerge += 1
            progress?(Progress(bytesRead: result.offset + Int64(result.byteCount), totalBytes: layout.documentSize))
        }
        workers.stop()

        if let offset = sequentialFrom {
            // From here on, one thread and the real sink: the sequential read's output and errors.
            inflating?.cancel()
            inflating = nil
            var (summary, _) = try readSequentially(
                from: offset, chunk: nil, closed: false, line: line, prolog: splitter.prolog,
                prologLineBreaks: splitter.prologLineBreaks, sink: sink, types: types, assigner: assigner, header: header,
                headerDelivered: headerDelivered, objectCount: objectCount, warnings: warnings, progress: progress,
                replacedBefore: replacedCount - (offset == 0 ? 0 : splitter.prologReplacements),
                firstReplacementBefore: firstReplacement)
            ExportMapper.mergePassedThrough(&summary.passedThrough, passedThrough)
            statistics.sequentialFrom = offset
            summary.parallel = statistics
            parsing.absorb(summary.parsing, lineOffset: 0)
            summary.parsing = parsing
            return summary
        }

        guard var header else {
            // No chunk at all (an empty file is not an export; the splitter refuses it first).
            throw ExportError(.notAnExport, "the document is empty", at: location)
        }
        if !headerDelivered { try sink.exportDidBegin(header) }
        header = workers.firstHeader ?? header
        if replacedCount > 0 {
            warnings.warn(
                "replacedBytes",
                "replaced \(replacedCount) byte(s) that XML forbids (first at byte offset \(firstReplacement ?? 0)); values containing them differ from the export",
                at: location)
        }
        var summary = Summary(
            header: header, objectCount: objectCount, replacedByteCount: replacedCount, isFragment: false,
            passedThrough: passedThrough, warnings: warnings.summary)
        summary.firstReplacementOffset = firstReplacement
        summary.parallel = statistics
        summary.parsing = parsing
        return summary
    }

    /// Reads a chunk (or, when `chunk` is `nil`, the document from `offset` to its end) on
    /// this thread, after the prolog, into the real sink, carrying the uuid state along: the
    /// sequential part of a parallel read. `closed`: a synthetic `</HealthData>` ends a chunk
    /// cut from the middle.
    private func readSequentially(
        from offset: Int64, chunk: [UInt8]?, closed: Bool, line: Int, prolog: [UInt8], prologLineBreaks: Int,
        sink: any ObjectSink, types: Set<String>?, assigner: ObjectIdentityAssigner, header: ExportHeader?, headerDelivered: Bool,
        objectCount: Int,
        warnings: WarningCollector, progress: ((Progress) -> Void)?, replacedBefore: Int = 0, firstReplacementBefore: Int64? = nil
    ) throws -> (Summary, ExportMapper) {
        let location = documentLocation
        let mapper = ExportMapper(sink: sink, warnings: warnings, file: location.file, member: location.member)
        mapper.typeFilter = types
        mapper.clinicalTypes = makeClinicalTypeResolver()
        mapper.assigner = assigner
        if let header { mapper.resume(header: header, headerDelivered: headerDelivered, objectCount: objectCount) }
        let prefix = offset == 0 ? [] : prolog + [0x0A]
        // The first byte read comes after the prolog and its line break.
        mapper.lineOffset = offset == 0 ? 0 : line - (prologLineBreaks + 2)
        mapper.prologLines = offset == 0 ? 0 : prologLineBreaks + 1
        let summary = try readXML(
            mapper: mapper, filter: XMLPreFilter(startingAt: offset - Int64(prefix.count)), warnings: warnings, salvage: false,
            progress: progress, progressBase: offset, replacedBefore: replacedBefore, firstReplacementBefore: firstReplacementBefore,
            reportsReplacements: chunk == nil
        ) { push in
            if let chunk {
                try prefix.withUnsafeBytes { try push($0, false) }
                try chunk.withUnsafeBytes { try push($0, false) }
                if closed { try XMLPreFilter.syntheticRootClose.withUnsafeBytes { try push($0, false) } }
                try push(UnsafeRawBufferPointer(start: nil, count: 0), true)
            } else {
                try streamDocument(from: offset, prefix: prefix, push: push)
            }
        }
        return (summary, mapper)
    }
}

extension ExportReader {
    /// The document from `offset` to its end, after `prefix`: the file read from there, or the
    /// zip entry inflated again from its start (a rare path: only when a parallel read of a zip
    /// turns sequential) with the first `offset` bytes dropped.
    func streamDocument(from offset: Int64, prefix: [UInt8], push: (UnsafeRawBufferPointer, Bool) throws -> Void) throws {
        let location = documentLocation
        switch source {
        case .file(let path):
            let file = try FileByteSource.opening(path)
            guard lseek(file.descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
                throw ExportError(.ioError, "cannot seek: \(String(cString: strerror(errno)))", at: location)
            }
            try stream(file, prefix: prefix, push: push)
        case .zip(_, _, let document):
            try prefix.withUnsafeBytes { try push($0, false) }
            var skip = offset
            try document.stream(chunkSize: Self.chunkSize, location: location) { bytes in
                if skip >= Int64(bytes.count) {
                    skip -= Int64(bytes.count)
                    return
                }
                try push(UnsafeRawBufferPointer(rebasing: bytes[Int(skip)...]), false)
                skip = 0
            }
            try push(UnsafeRawBufferPointer(start: nil, count: 0), true)
        default:
            preconditionFailure("only files and zips are read in parallel")
        }
    }

    /// Starts inflating the zip's document on a thread of its own, into a pipe.
    static func inflateOnAnotherThread(_ document: ZipDocumentStream, location: SourceLocation) -> ChunkPipe {
        ChunkPipe.filled(by: { emit in try document.stream(chunkSize: chunkSize, location: location, emit) }, name: "healthport inflate")
    }
}

/// How a parallel read went: for tests, and for seeing why a read was not as fast as hoped.
public struct ParallelStatistics: Sendable, Equatable {
    /// Chunks parsed by workers and merged as they were.
    public var merged = 0
    /// Chunks read again on the merging thread, because their uuids needed an earlier chunk.
    public var reread = 0
    /// Where the read turned sequential to the end (a chunk that did not parse on its own, or
    /// no boundary found), if it did.
    public var sequentialFrom: Int64? = nil
}

