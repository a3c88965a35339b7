import ArgumentParser
import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

extension Healthport {
    /// `healthport clinical`: clinical records with their FHIR resources.
    struct Clinical: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clinical records with their FHIR resources embedded.", discussion: "See healthport-clinical(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .shortAndLong, help: "Output: ndjson (default) or json.")
        var format: OutputFormat = .ndjson

        @Option(name: .shortAndLong, help: ArgumentHelp("A file; default standard output.", valueName: "path"))
        var output: String = "-"

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = filter.diagnostics(diagnostics)
            try log.run {
                guard format != .csv else { throw QueryError(.errorInvalidArgument, "clinical writes ndjson or json") }
                var query = try filter.makeQuery()
                let clinicalTypes = Set(TypeCatalogue.all.filter { $0.kind == .clinicalRecord }.map(\.identifier))
                query.types = query.types.map { $0.intersection(clinicalTypes) } ?? nil
                let executor = QueryExecutor(query)
                let reader = try ExportReader.open(input.export)
                let writer = try AttachmentRecordWriter(json: format == .json, path: output)
                final class Sink: ObjectSink {
                    let executor: QueryExecutor
                    let reader: ExportReader
                    let writer: AttachmentRecordWriter
                    let log: Diagnostics
                    init(executor: QueryExecutor, reader: ExportReader, writer: AttachmentRecordWriter, log: Diagnostics) {
                        self.executor = executor
                        self.reader = reader
                        self.writer = writer
                        self.log = log
                    }
                    func exportDidBegin(_ header: ExportHeader) throws {}
                    func consume(_ object: HealthObject) throws {
                        guard case .clinicalRecord(let record) = object, executor.admits(object) else { return }
                        var resource: [UInt8]? = nil
                        if let path = record.resourceFilePath {
                            do {
                                if let data = try reader.attachment(path) {
                                    resource = CompactJSON.bytes(of: data)
                                    if resource == nil {
                                        log.warning("the FHIR resource \(path) is not valid JSON; the record is written without it")
                                    }
                                } else {
                                    log.warning("the FHIR resource \(path) is missing from the export")
                                }
                            } catch let error as ExportError where error.code == .unsafeMemberPath {
                                log.warning(error.message)
                            }
                        }
                        try writer.write(record, resource: resource)
                    }
                }
                do {
                    let summary = try reader.read(
                        into: Sink(executor: executor, reader: reader, writer: writer, log: log), warning: { log.warning($0) },
                        types: executor.typesToRead ?? clinicalTypes.union(
                            ["HKClinicalTypeIdentifierPatientRecord"]))
                    log.repeats(summary.warnings)
                    try writer.finish()
                } catch {
                    writer.abandon()
                    throw error
                }
            }
        }
    }
}
