import HealthDeidentify
import HealthModel

/// The one place where a query and its authorization policy meet the objects: a sink that
/// passes on what the query admits, as the consumer may see it, and nothing else.
///
/// Every run reads through one (an export's objects, NDJSON, the store's rows), so that no
/// format, command or server answer can forget the policy: HealthKit applies authorization
/// inside query execution, and so does healthport. The header goes through too, with only the
/// characteristics the policy grants.
///
/// With `ObjectQuery.deidentification`, the gate is also where objects are de-identified, after
/// the policy (`Deidentifier`): the one place, so that no writer can be handed an object that
/// was not. An object de-identification removes whole (a clinical record) is not admitted.
///
/// Cheap on the hot path: without a policy, an output unit or de-identification, admitted
/// objects are passed on as they are (a copy would retain every string in them).
public final class QueryGate: ObjectSink {
    /// The query.
    public let executor: QueryExecutor
    private let downstream: any ObjectSink
    private let isCancelled: (@Sendable () -> Bool)?
    /// Objects passed on so far (after the query and the policy: a count of hidden objects
    /// would hint at them).
    public private(set) var admitted = 0
    private var sinceCancellationCheck = 0
    /// This gate's de-identifier (its caches belong to one stream, as the gate does).
    private let deidentifier: Deidentifier?

    /// - Parameters:
    ///   - isCancelled: asked every 1,024 objects; when it answers true the read stops with
    ///     `CancellationError`.
    public init(_ executor: QueryExecutor, into downstream: any ObjectSink, isCancelled: (@Sendable () -> Bool)? = nil) {
        self.executor = executor
        self.downstream = downstream
        self.isCancelled = isCancelled
        self.deidentifier = executor.query.deidentification?.makeDeidentifier()
    }

    public func exportDidBegin(_ header: ExportHeader) throws {
        try downstream.exportDidBegin(self.header(header))
    }

    /// The header as this gate's consumer sees it: the characteristics the query and the
    /// policy admit, de-identified when the query asks for it.
    public func header(_ header: ExportHeader) -> ExportHeader {
        let visible = executor.header(header)
        guard let deidentifier else { return visible }
        return deidentifier.header(visible, grantsCharacteristics: executor.query.policy != nil)
    }

    @inline(__always)
    public func consume(_ object: HealthObject) throws {
        if let isCancelled {
            sinceCancellationCheck &+= 1
            if sinceCancellationCheck & 1023 == 0, isCancelled() { throw CancellationError() }
        }
        guard executor.admits(object) else { return }
        if let deidentifier {
            // Two calls rather than one on a conditional value, which copied the whole object.
            let deidentified = executor.transformsObjects ? deidentifier.deidentify(try executor.transform(object)) : deidentifier.deidentify(object)
            guard let deidentified else { return }
            admitted &+= 1
            try downstream.consume(deidentified)
            return
        }
        admitted &+= 1
        if executor.transformsObjects {
            try downstream.consume(try executor.transform(object))
        } else {
            try downstream.consume(object)
        }
    }

    /// One object through the gate, for callers that hold objects rather than stream them
    /// (side files read on their own, the store's change rows): `nil` when the query or the
    /// policy hides it.
    public func visible(_ object: HealthObject) throws -> HealthObject? {
        guard executor.admits(object) else { return nil }
        let visible = executor.transformsObjects ? try executor.transform(object) : object
        guard let deidentifier else { return visible }
        return deidentifier.deidentify(visible)
    }
}

/// What a sink does when told there is no more to read (a limit reached): thrown by a sink,
/// it stops the source, and the run ends normally.
public struct EnoughObjects: Error, Sendable {
    public init() {}
}

extension QueryExecutor {
    /// The header as the query's consumer sees it, for runs that report it besides the objects
    /// (a conversion's summary): what a gate of this query hands its sink.
    public func visibleHeader(_ header: ExportHeader) -> ExportHeader {
        let visible = self.header(header)
        guard let deidentification = query.deidentification else { return visible }
        return deidentification.makeDeidentifier().header(visible, grantsCharacteristics: query.policy != nil)
    }
}
