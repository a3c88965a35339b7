import HealthExport
import HealthModel
import HealthQuery

/// The objects of a per-object type (vision prescriptions) that a per-object authorization
/// request offers the person, one by one, as HealthKit's sheet does (`healthport auth
/// request-per-object`). The owner reads here, so no policy applies.
public struct PerObjectOfferRun: Sendable {
    /// An export, or the store.
    public var input: ObjectInput
    /// How an export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    /// One type, and optionally a predicate over it.
    public var query: ObjectQuery
    /// At most this many are offered.
    public static let offerLimit = 10_000

    public init(input: ObjectInput, query: ObjectQuery) {
        self.input = input
        self.query = query
    }

    /// - Parameter reporter: the export reader's warnings and progress (the store reports none).
    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> [HealthObject] {
        try RunError.wrapping {
            let executor = QueryExecutor(query)
            try executor.validate()
            let sink = OfferedObjects()
            switch try OpenedInput(input, reading: reading, cancellation: cancellation, reporter: reporter) {
            case .export(let reader):
                let read = GatedExportRead(reader: reader, executor: executor, reporter: reporter, cancellation: cancellation)
                _ = try read.run(into: sink)
            case .store(let store):
                try store.read(query: executor, into: sink, isCancelled: cancellation?.check)
            }
            return sink.objects
        }
    }
}

/// After the gate: the objects offered.
final class OfferedObjects: ObjectSink {
    var objects: [HealthObject] = []
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws {
        guard objects.count < PerObjectOfferRun.offerLimit else { return }
        objects.append(object)
    }
}
