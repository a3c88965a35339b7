import HealthExport
import HealthModel
import HealthQuery

/// The export's ECG recordings (`electrocardiograms/*.csv`), which the document does not list.
enum ElectrocardiogramFiles {
    /// Every ECG recording of the export that `query` admits (`ExportReader.electrocardiograms`,
    /// through the reader's gate); a file that cannot be read is a warning.
    static func visible(
        in reader: ExportReader, query: QueryExecutor, reporter: RunReporter, _ body: (String, Electrocardiogram) throws -> Void
    ) throws {
        // De-identified, none: a recording is the person's own voltage signal, and its note is
        // what they typed ("chest pain after my chemo at St Mary"). Every format leaves them out.
        guard query.query.deidentification == nil else { return }
        try reader.electrocardiograms(
            query, warning: { error in reporter.warning(.sideFile(error.message, at: SourceLocation(file: reader.input.displayName))) }, body)
    }
}
