import ArgumentParser
import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

extension Healthport {
    /// `healthport ecg`: the Apple Watch electrocardiograms.
    struct ECG: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ecg",
            abstract: "Electrocardiograms: classification, sample rate, lead and microvolt samples.",
            discussion: "See healthport-ecg(1).")

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
                guard format != .csv else { throw QueryError(.errorInvalidArgument, "ecg writes ndjson or json") }
                // The same read path as every other object: --start/--end, --uuid, --where and
                // --policy all apply. An ECG file has no source, device record or metadata, so
                // --source, --device and predicates over those match nothing.
                let query = try filter.makeQuery()
                let executor = QueryExecutor(query)
                let reader = try ExportReader.open(input.export)
                let writer = try AttachmentRecordWriter(json: format == .json, path: output)
                do {
                    try Self.admittedRecordings(reader: reader, executor: executor, log: log) { _, ecg in try writer.write(ecg) }
                    try writer.finish()
                } catch {
                    writer.abandon()
                    throw error
                }
            }
        }

        /// Every ECG file of the export the query admits, read, with its derived uuid; a file
        /// that cannot be read is a warning. `ecg` writes them; export archives carry their files.
        static func admittedRecordings(
            reader: ExportReader, executor: QueryExecutor, log: Diagnostics, _ body: (String, Electrocardiogram) throws -> Void
        ) throws {
            var encoder = CanonicalEncoder()
            for file in reader.layout.sideFiles where file.hasPrefix("electrocardiograms/") && file.lowercased().hasSuffix(".csv") {
                do {
                    guard let data = try reader.attachment(file) else { continue }
                    var ecg = try ElectrocardiogramReader.read(data, file: file)
                    ecg.uuid = ObjectIdentity.uuid(of: .electrocardiogram(ecg), encoder: &encoder)
                    guard executor.admits(.electrocardiogram(ecg)) else { continue }
                    try body(file, ecg)
                } catch let error as ExportError where error.code != .unsafeMemberPath {
                    log.warning(error.message, at: reader.input.displayName)
                }
            }
        }
    }
}
