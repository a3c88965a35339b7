import Foundation
import HealthModel

/// What a worker made of one chunk.
struct ChunkResult<ChunkSink> {
    var index: Int
    var offset: Int64
    var byteCount: Int
    /// Whether the chunk parsed on its own, without an error.
    var parsed: Bool
    var sink: ChunkSink
    var header: ExportHeader
    var headerDeliveredByElement: Bool
    var steps: [ObjectIdentityAssigner.IdentityStep]
    var warnings: WarningCollector
    var objectCount: Int
    var passedThrough: [String: Int]
    var replacedCount: Int
    var firstReplacement: Int64?
    var lineBreaks: Int
    /// How the chunk's body was read.
    var parsing: ExportReader.Parsing
    var isLast: Bool
    /// The chunk itself, in case it must be read again on the merging thread.
    var bytes: [UInt8]
}

/// `jobs` threads parsing submitted chunks; results are collected by index.
final class ChunkWorkers<ChunkSink: ObjectSink>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [ChunkSplitter.Chunk] = []
    private var results: [Int: ChunkResult<ChunkSink>] = [:]
    private var stopped = false
    private var running = 0
    private let prolog: [UInt8]
    private let prologLineBreaks: Int
    private let prologReplacements: Int
    private let location: SourceLocation
    private let types: Set<String>?
    private let clinicalTypes: ClinicalTypeResolver?
    private let makeSink: @Sendable () -> ChunkSink
    private let parser: ExportXMLParser
    /// Where an unsplittable rest begins, once the splitter met it.
    var finalOffset: Int64? = nil
    /// The header chunk 0 ended with (after `Me`), for the summary.
    private(set) var firstHeader: ExportHeader? = nil

    init(
        jobs: Int, prolog: [UInt8], prologLineBreaks: Int, prologReplacements: Int, location: SourceLocation,
        types: Set<String>?, clinicalTypes: ClinicalTypeResolver?, parser: ExportXMLParser,
        makeSink: @escaping @Sendable () -> ChunkSink
    ) {
        self.clinicalTypes = clinicalTypes
        self.parser = parser
        self.prologReplacements = prologReplacements
        self.prolog = prolog
        self.prologLineBreaks = prologLineBreaks
        self.location = location
        self.types = types
        self.makeSink = makeSink
        running = jobs
        for n in 0..<jobs {
            let thread = Thread { [self] in work() }
            thread.name = "healthport parse \(n + 1)"
            thread.start()
        }
    }

    func submit(_ chunk: ChunkSplitter.Chunk) {
        condition.lock()
        queue.append(chunk)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for chunk `index` and takes its result.
    func result(_ index: Int) -> ChunkResult<ChunkSink> {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        return results.removeValue(forKey: index)!
    }

    /// Stops the threads after their current chunk and waits for them.
    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        while running > 0 { condition.wait() }
        results.removeAll()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            if stopped {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let chunk = queue.removeFirst()
            condition.unlock()
            let result = parse(chunk)
            condition.lock()
            if chunk.isFirst { firstHeader = result.1 }
            results[chunk.index] = result.0
            condition.broadcast()
            condition.unlock()
        }
    }

    static var closingTag: [UInt8] { XMLPreFilter.syntheticRootClose }

    /// Counts line breaks with `memchr`, which runs at memory speed (a Swift loop over the
    /// bytes, even eight at a time, took 3 % of a parallel conversion).
    static func lineBreaks(in bytes: UnsafeRawBufferPointer) -> Int {
        guard var p = bytes.baseAddress else { return 0 }
        let end = p + bytes.count
        var count = 0
        while p < end, let found = memchr(p, 0x0A, end - p) {
            count += 1
            p = UnsafeRawPointer(found) + 1
        }
        return count
    }

    /// Parses one chunk: after the prolog (but the first), and closed by a synthetic
    /// `</HealthData>` (but the last).
    private func parse(_ chunk: ChunkSplitter.Chunk) -> (ChunkResult<ChunkSink>, ExportHeader) {
        let sink = makeSink()
        let warnings = WarningCollector { _ in }
        let mapper = ExportMapper(sink: sink, warnings: warnings, file: location.file, member: location.member)
        mapper.typeFilter = types
        mapper.clinicalTypes = clinicalTypes
        mapper.assigner.journal = []
        // Lines are counted from the chunk's first (line 1); the merge moves them to the file's.
        mapper.lineOffset = chunk.isFirst ? 0 : -(prologLineBreaks + 1)
        let prefix = chunk.isFirst ? [] : prolog + [0x0A]
        let chain = ExportParseChain(
            mapper: mapper, filter: XMLPreFilter(startingAt: chunk.offset - Int64(prefix.count)), tracksSyntheticRoot: false,
            parser: parser)
        var parsed = true
        func push(_ bytes: UnsafeRawBufferPointer, isLast: Bool) throws {
            try chain.push(bytes, isLast: isLast)
        }
        do {
            if !prefix.isEmpty { try prefix.withUnsafeBytes { try push($0, isLast: false) } }
            try chunk.bytes.withUnsafeBytes { try push($0, isLast: false) }
            if !chunk.isLast { try Self.closingTag.withUnsafeBytes { try push($0, isLast: false) } }
            try push(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true)
            try chain.finish()
            if chain.pendingError != nil { parsed = false }
            // Warning kinds past the bound are counted together here, with no names to tell
            // them from the kinds the chunks before met: such a chunk is read again in order.
            if warnings.overflowed { parsed = false }
        } catch {
            parsed = false
        }
        let filter = chain.filter
        let lineBreaks = chunk.bytes.withUnsafeBytes { Self.lineBreaks(in: $0) }
        let parsing = chain.parsing
        let result = ChunkResult(
            index: chunk.index, offset: chunk.offset, byteCount: chunk.bytes.count, parsed: parsed, sink: sink,
            header: mapper.deliveredHeader ?? mapper.header, headerDeliveredByElement: mapper.headerDeliveredByElement, steps: mapper.assigner.journal ?? [], warnings: warnings,
            objectCount: mapper.objectCount, passedThrough: mapper.passedThrough, replacedCount: chain.replacedCount - (chunk.isFirst ? 0 : prologReplacements),
            firstReplacement: chain.firstReplacementOffset, lineBreaks: lineBreaks, parsing: parsing, isLast: chunk.isLast, bytes: chunk.bytes)
        var finalHeader = mapper.header
        finalHeader.exportVersion = filter.exportVersion
        return (result, finalHeader)
    }
}
