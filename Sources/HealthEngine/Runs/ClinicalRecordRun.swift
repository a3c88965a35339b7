import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery

/// Clinical records with their FHIR resources embedded (`healthport clinical`).
public struct ClinicalRecordRun: Sendable {
    /// The export, the output and the query, whose types are narrowed to the clinical ones.
    public var request: AttachmentRecordRequest

    public init(_ request: AttachmentRecordRequest) { self.request = request }

    public init(export: String, query: ObjectQuery = ObjectQuery(), json: Bool = false, output: String = "-") {
        self.init(AttachmentRecordRequest(export: export, query: query, json: json, output: output))
    }

    public struct Summary: Sendable {
        public var written: Int
        public var warnings: [RepeatedWarning]
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping {
            try OutputInputGuard.check(outputs: [request.output], inputs: [request.export], query: request.query)
            var query = request.query
            let clinicalTypes = Set(TypeCatalogue.all.filter { $0.kind == .clinicalRecord }.map(\.identifier))
            query.types = query.types.map { $0.intersection(clinicalTypes) } ?? nil
            let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation, validates: false)
            let (executor, reporter) = (context.executor, context.reporter)
            return try request.writing(cancellation: cancellation) { reader, writer in
                let sink = ClinicalRecordSink(reader: reader, writer: writer, reporter: reporter)
                let read = context.read(reader)
                // Patient resources have no HealthKit type (they keep their FHIR name); without a
                // policy they are the person's own data and are written too.
                let readable = clinicalTypes.union([ObjectType.clinical(fhirResourceType: "Patient").identifier])
                let summary = try read.run(into: sink, types: executor.typesToRead.map { $0.intersection(readable) } ?? readable)
                return Summary(written: sink.written, warnings: context.warnings(of: summary))
            }
        }
    }
}

/// After the gate: clinical records written with their FHIR resource read from its file.
final class ClinicalRecordSink: ObjectSink {
    let reader: ExportReader
    let writer: AttachmentRecordWriter
    let reporter: RunReporter
    private(set) var written = 0

    init(reader: ExportReader, writer: AttachmentRecordWriter, reporter: RunReporter) {
        self.reader = reader
        self.writer = writer
        self.reporter = reporter
    }

    func exportDidBegin(_ header: ExportHeader) throws {}

    func consume(_ object: HealthObject) throws {
        guard case .clinicalRecord(let record) = object else { return }
        var resource: [UInt8]? = nil
        if let path = record.resourceFilePath {
            do {
                if let data = try reader.sideFile(path) {
                    resource = CompactJSON.bytes(of: data)
                    if resource == nil {
                        reporter.warning(.sideFile("the FHIR resource \(path) is not valid JSON; the record is written without it"))
                    }
                } else {
                    reporter.warning(.sideFile("the FHIR resource \(path) is missing from the export"))
                }
            } catch let error as ExportError where error.code == .unsafeMemberPath {
                reporter.warning(.sideFile(error.message))
            }
        }
        try writer.write(record, resource: resource)
        written += 1
    }
}
