import HealthExport
import HealthModel
import HealthQuery

/// Reads an export through a query's gate, reporting warnings and progress: the read every
/// export run makes, so that none can hand the reader's objects to a sink directly.
struct GatedExportRead {
    let reader: ExportReader
    let executor: QueryExecutor
    /// Already restricted by the policy (no reader warnings under one).
    let reporter: RunReporter
    let cancellation: RunCancellation?

    /// Streams the export into `sink` through a new gate.
    ///
    /// - Parameters:
    ///   - types: the types to build, when not the query's own.
    ///   - objects: the object count progress shows, when not the gate's.
    func run(
        into sink: any ObjectSink, types: Set<String>? = nil, salvage: Bool = false, objects: (() -> Int)? = nil
    ) throws -> (summary: ExportReader.Summary, gate: QueryGate) {
        let gate = QueryGate(executor, into: sink, isCancelled: cancellation?.check)
        let reporter = self.reporter
        let summary = try reader.read(
            into: gate, warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: objects?() ?? gate.admitted))
            },
            types: types ?? executor.typesToRead, salvage: salvage)
        return (summary, gate)
    }
}

/// The first of each kind of warning a read met, and how often it met it in all: what a run's
/// summary carries so its caller can say "(N times in all)".
public struct RepeatedWarning: Sendable {
    public var warning: ExportWarning
    public var count: Int
}

extension ExportReader.Summary {
    /// The warnings, as a run reports them: none under a policy (they describe the export).
    func repeatedWarnings(underPolicy: Bool) -> [RepeatedWarning] {
        underPolicy ? [] : warnings.map { RepeatedWarning(warning: $0.warning, count: $0.count) }
    }
}
