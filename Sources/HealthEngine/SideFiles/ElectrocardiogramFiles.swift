import HealthExport
import HealthModel
import HealthQuery

/// The export's ECG recordings (`electrocardiograms/*.csv`), which the document does not list.
enum ElectrocardiogramFiles {
    /// Every ECG file of the export that passes `gate`, read, with its uuid derived from its
    /// content (as every object's is); a file that cannot be read is a warning.
    static func visible(
        in reader: ExportReader, through gate: QueryGate, reporter: RunReporter, _ body: (String, Electrocardiogram) throws -> Void
    ) throws {
        var encoder = CanonicalEncoder()
        for file in reader.layout.sideFiles where file.hasPrefix("electrocardiograms/") && file.lowercased().hasSuffix(".csv") {
            do {
                guard let data = try reader.attachment(file) else { continue }
                var ecg = try ElectrocardiogramReader.read(data, file: file)
                ecg.uuid = ObjectIdentity.uuid(of: .electrocardiogram(ecg), encoder: &encoder)
                guard case .electrocardiogram(let visible)? = try gate.visible(.electrocardiogram(ecg)) else { continue }
                try body(file, visible)
            } catch let error as ExportError where error.code != .unsafeMemberPath {
                reporter.warning(.sideFile(error.message, at: SourceLocation(file: reader.input.displayName)))
            }
        }
    }
}
