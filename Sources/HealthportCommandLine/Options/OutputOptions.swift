import Foundation
import ArgumentParser
import HealthEngine
import HealthOutput

extension ObjectFormat: ExpressibleByArgument {}
extension ParquetCompression: ExpressibleByArgument {}

package struct OutputOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .shortAndLong,
        help: "Output format: ndjson (default), json, csv, parquet, export (Apple's export.xml; convert and query), fhir (FHIR R4, Bulk Data NDJSON), or omh (Open mHealth data points, NDJSON; convert and query).")
    package var format: ObjectFormat = .ndjson

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write: a file (ndjson, json, export; X.zip makes an export archive; X.parquet one table), a folder (csv, parquet, fhir), or - for standard output (default).",
            valueName: "path"),
        completion: .file())
    package var output: String = "-"

    @Option(name: .long, help: "Parquet page compression: zstd (default), gzip or none.")
    package var compression: ParquetCompression = .zstd

    /// How Parquet files are written: `--compression`, and the row group size from the
    /// environment (`HEALTHPORT_PARQUET_ROW_GROUP_ROWS`).
    /// How Parquet files are written: `--compression`, and the row group size from
    /// `HEALTHPORT_PARQUET_ROW_GROUP_ROWS` when set (small row groups let a test see readers skip
    /// them). Read here, by the face, and handed to the run.
    package var parquet: ParquetOptions {
        var options = ParquetOptions(compression: compression)
        if let text = ProcessInfo.processInfo.environment["HEALTHPORT_PARQUET_ROW_GROUP_ROWS"], let rows = Int(text), rows > 0 {
            options.rowGroupRows = rows
        }
        return options
    }
}
