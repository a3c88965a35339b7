import HealthExport
import HealthOutput
import HealthQuery

/// What `healthport clinical` and `healthport ecg` are asked alike: records that carry a file
/// of their own (a FHIR resource, an ECG's CSV), read from one export through a query and
/// written whole as NDJSON or one JSON array.
///
/// One value for both runs, so the two cannot come to read or write differently: each run adds
/// only which records it picks and how it reads their files.
public struct AttachmentRecordRequest: Sendable {
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

    /// Opens the export and the output, hands both to `body`, then finishes the output.
    ///
    /// When `body` or the finish throws, the output is abandoned: a failed run leaves no
    /// partial file behind.
    func writing<Result>(
        cancellation: RunCancellation?, _ body: (ExportReader, AttachmentRecordWriter) throws -> Result
    ) throws -> Result {
        let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
        let writer = try AttachmentRecordWriter.make(json: json, to: OutputDestination(output))
        do {
            let result = try body(reader, writer)
            try writer.finish()
            return result
        } catch {
            writer.abandon()
            throw error
        }
    }
}
