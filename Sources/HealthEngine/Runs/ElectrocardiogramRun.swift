import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// The Apple Watch electrocardiograms of an export (`healthport ecg`): classification, sample
/// rate, lead and microvolt samples, each through the gate like every other object.
///
/// An ECG file has no source, device record or metadata, so source, device and predicates
/// over those match nothing.
public struct ElectrocardiogramRun: Sendable {
    public var export: String
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var query: ObjectQuery
    /// One JSON array instead of NDJSON.
    public var json: Bool
    public var output: String

    public init(export: String, query: ObjectQuery = ObjectQuery(), json: Bool = false, output: String = "-") {
        self.export = export
        self.query = query
        self.json = json
        self.output = output
    }

    /// - Returns: how many recordings were written.
    @discardableResult
    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Int {
        try RunError.wrapping {
            try OutputInputGuard.check(outputs: [output], inputs: [export], query: query)
            let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
            let (executor, reporter) = (context.executor, context.reporter)
            let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
            let writer = try AttachmentRecordWriter.make(json: json, to: OutputDestination(output))
            var written = 0
            do {
                try ElectrocardiogramFiles.visible(in: reader, query: executor, reporter: reporter) { _, ecg in
                    if cancellation?.isCancelled == true { throw CancellationError() }
                    try writer.write(ecg)
                    written += 1
                }
                try writer.finish()
            } catch {
                writer.abandon()
                throw error
            }
            return written
        }
    }
}
