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
        try reader.electrocardiograms(
            query, warning: { error in reporter.warning(.sideFile(error.message, at: SourceLocation(file: reader.input.displayName))) }, body)
    }
}
