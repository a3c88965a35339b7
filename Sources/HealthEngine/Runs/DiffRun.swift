import HealthModel
import HealthOutput
import HealthQuery

/// The changes from one export to another: an anchor of the old one, then the changes of the
/// new one since it (`healthport diff`).
public struct DiffRun: Sendable {
    public var oldExport: String
    public var newExport: String
    public var query: ObjectQuery
    public var format: ObjectFormat
    /// How Parquet files are written (`--format parquet`).
    public var parquet = ParquetOptions()
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var output: String
    /// Also write the anchor of the new export to this file.
    public var anchorOutput: String?

    public init(
        oldExport: String, newExport: String, query: ObjectQuery = ObjectQuery(), format: ObjectFormat = .ndjson,
        output: String = "-", anchorOutput: String? = nil
    ) {
        self.oldExport = oldExport
        self.newExport = newExport
        self.query = query
        self.format = format
        self.output = output
        self.anchorOutput = anchorOutput
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> ChangesRun.Summary {
        try RunError.wrapping {
            try OutputInputGuard.check(outputs: [output, anchorOutput], inputs: [oldExport, newExport], query: query)
            var anchorRun = AnchorRun(export: oldExport, query: query)
            anchorRun.reading = reading
            let old = try anchorRun.execute(reporter: reporter, cancellation: cancellation)
            var changes = ChangesRun(
                input: .export(newExport), query: query, anchor: .export(old.anchor), limit: nil, format: format, output: output,
                anchorOutput: anchorOutput)
            changes.parquet = parquet
            changes.reading = reading
            var summary = try changes.execute(reporter: reporter, cancellation: cancellation)
            summary.warnings = old.warnings + summary.warnings
            return summary
        }
    }
}
