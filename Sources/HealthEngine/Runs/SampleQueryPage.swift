import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// One page of a sample query's answer, in memory, for a face that answers in messages rather
/// than files (the assistant interface): the same read, gate, sort and limit as
/// `SampleQueryRun`, with the objects as healthport's JSON.
///
/// Pages are positions in the answer: page *n* skips the objects of the pages before it. A
/// sorted query keeps at most `skip + count + 1` objects in memory (the external sorter's
/// limit); an unsorted one stops reading after them.
public struct SampleQueryPage: Sendable {
    /// Each object as one line of healthport's JSON (without the newline).
    public var objects: [[UInt8]]
    /// Whether the answer has objects after this page.
    public var hasMore: Bool
}

extension SampleQueryRun {
    /// The objects after the first `skip` of the answer, at most `count` of them, and fewer
    /// when their JSON would pass `byteLimit` (a page always holds one object, so paging ends).
    /// `limit` still bounds the whole answer, as HealthKit's query limit does.
    public func page(
        skipping skip: Int, count: Int, byteLimit: Int = .max, cancellation: RunCancellation? = nil
    ) throws(RunError) -> SampleQueryPage {
        try RunError.wrapping {
            let context = try RunContext(query: query, reporter: .silent, cancellation: cancellation)
            let wanted = limit.map { min($0, skip + count + 1) } ?? (skip + count + 1)
            let sink = PageSink(
                sorter: sortDescriptors.isEmpty ? nil : ExternalSorter(sortDescriptors: sortDescriptors, limit: wanted),
                skip: skip, count: count, byteLimit: byteLimit, limit: limit)
            // The objects as NDJSON gives them: with their local times (`PersonZone`).
            sink.localTimes = try PersonZone.setting(
                query: query, given: timeZone, input: input, reading: reading, reporter: .silent, cancellation: cancellation
            ).makeLocalTimes()
            do {
                switch try OpenedInput(input, reading: reading, cancellation: cancellation) {
                case .export(let reader): _ = try context.read(reader).run(into: sink)
                case .store(let store): try store.read(query: context.executor, into: sink, isCancelled: cancellation?.check)
                }
            } catch is EnoughObjects {
                // The page is full and one more object showed there is more.
            }
            try sink.finish()
            return SampleQueryPage(objects: sink.objects, hasMore: sink.hasMore)
        }
    }
}

/// After the gate: the objects of one page.
final class PageSink: ObjectSink {
    private let sorter: ExternalSorter?
    private let skip: Int
    private let count: Int
    private let byteLimit: Int
    private let limit: Int?
    private let codec = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
    /// The objects' local times (`LocalTimes`), as NDJSON gives them.
    var localTimes: LocalTimes? {
        get { codec.localTimes }
        set { codec.localTimes = newValue }
    }
    private var seen = 0
    private var bytes = 0
    private(set) var objects: [[UInt8]] = []
    private(set) var hasMore = false

    init(sorter: ExternalSorter?, skip: Int, count: Int, byteLimit: Int, limit: Int?) {
        self.sorter = sorter
        self.skip = skip
        self.count = count
        self.byteLimit = byteLimit
        self.limit = limit
    }

    func exportDidBegin(_ header: ExportHeader) throws {}

    func consume(_ object: HealthObject) throws {
        if let sorter {
            try sorter.add(object, payload: try codec.encode(object))
        } else {
            try take(try codec.encode(object))
        }
    }

    /// One object of the answer, in order: skipped, kept, or the sign that there is more.
    private func take(_ line: [UInt8]) throws {
        defer { seen += 1 }
        if let limit, seen >= limit { throw EnoughObjects() }
        if seen < skip { return }
        let json = Array(line.dropLast())
        if objects.count >= count || (!objects.isEmpty && bytes + json.count > byteLimit) {
            hasMore = true
            throw EnoughObjects()
        }
        bytes += json.count
        objects.append(json)
    }

    func finish() throws {
        guard let sorter else { return }
        do {
            try sorter.drain { record in try take(record) }
        } catch is EnoughObjects {}
    }
}
