import HealthExport
import HealthModel
import HealthQuery

/// What every run sets up before it reads: the query's executor (validated against the
/// queried types), what it discloses, the reporter as that allows (no reader warnings under a
/// policy), and the caller's cancellation.
struct RunContext {
    let executor: QueryExecutor
    let reporter: RunReporter
    let cancellation: RunCancellation?

    /// - Throws: `QueryError`, `QueryPredicateError` or `AuthorizationError` when the query
    ///   does not fit its types or its policy.
    init(query: ObjectQuery, reporter: RunReporter, cancellation: RunCancellation?, validates: Bool = true) throws {
        executor = QueryExecutor(query)
        if validates { try executor.validate() }
        disclosure = executor.disclosure
        self.reporter = reporter.restricted(to: disclosure)
        self.cancellation = cancellation
    }

    /// What the run may tell besides the objects its query admits.
    let disclosure: Disclosure

    /// A read of `reader` through this context's gate.
    func read(_ reader: ExportReader) -> GatedExportRead {
        GatedExportRead(reader: reader, executor: executor, reporter: reporter, cancellation: cancellation)
    }

    /// A read's warnings as the run's summary reports them.
    func warnings(of summary: ExportReader.Summary) -> [RepeatedWarning] {
        summary.repeatedWarnings(disclosure)
    }
}
