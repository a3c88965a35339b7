import HealthExport
import HealthModel
import HealthQuery

/// Reads an export through a query's gate, reporting warnings and progress: the read every
/// export run makes. The gate is the reader's own (`ExportReader.read(_:into:…)`): a run hands
/// it the query, never a sink of its own that objects could reach ungated.
struct GatedExportRead {
    let reader: ExportReader
    let executor: QueryExecutor
    /// Already restricted by the query's disclosure (no reader warnings under a policy).
    let reporter: RunReporter
    let cancellation: RunCancellation?

    /// Streams the export into `sink` through the query's gate.
    ///
    /// - Parameters:
    ///   - types: the types to build, when narrower than the query's.
    ///   - objects: the object count progress shows, when not the objects admitted.
    /// - Returns: the read's summary (`admitted`: the objects let through).
    func run(
        into sink: any ObjectSink, types: Set<String>? = nil, salvage: Bool = false, objects: (() -> Int)? = nil
    ) throws -> ExportReader.Summary {
        let reporter = self.reporter
        return try reader.read(
            executor, into: sink, warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: objects?() ?? value.admitted))
            },
            types: types, salvage: salvage, isCancelled: cancellation?.check)
    }
}

/// The first of each kind of warning a read met, and how often it met it in all: what a run's
/// summary carries so its caller can say "(N times in all)".
public struct RepeatedWarning: Sendable {
    public var warning: ExportWarning
    public var count: Int
}

extension ExportReader.Summary {
    /// The warnings, as a run reports them: only when the query discloses facts about the
    /// export (they describe all of it, what a policy hides included).
    func repeatedWarnings(_ disclosure: Disclosure) -> [RepeatedWarning] {
        disclosure.exportFacts ? warnings.map { RepeatedWarning(warning: $0.warning, count: $0.count) } : []
    }
}
