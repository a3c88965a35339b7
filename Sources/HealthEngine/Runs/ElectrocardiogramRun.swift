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
    public var request: AttachmentRecordRequest

    public init(_ request: AttachmentRecordRequest) { self.request = request }

    public init(export: String, query: ObjectQuery = ObjectQuery(), json: Bool = false, output: String = "-") {
        self.init(AttachmentRecordRequest(export: export, query: query, json: json, output: output))
    }

    /// - Returns: how many recordings were written.
    @discardableResult
    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Int {
        try RunError.wrapping {
            try OutputInputGuard.check(outputs: [request.output], inputs: [request.export], query: request.query)
            let context = try RunContext(query: request.query, reporter: reporter, cancellation: cancellation)
            let (executor, reporter) = (context.executor, context.reporter)
            return try request.writing(cancellation: cancellation) { reader, writer in
                var written = 0
                try ElectrocardiogramFiles.visible(in: reader, query: executor, reporter: reporter) { _, ecg in
                    if cancellation?.isCancelled == true { throw CancellationError() }
                    try writer.write(ecg)
                    written += 1
                }
                return written
            }
        }
    }
}
