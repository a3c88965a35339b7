import Foundation
import HealthJSON
extension ChangeWriter {
    /// The change writer for a format and a destination: NDJSON or JSON to a file or standard
    /// output, CSV or Parquet tables into a folder, FHIR into a folder (or its Observations and
    /// deletions to standard output).
    ///
    /// - Parameters:
    ///   - holdingStandardOutput: NDJSON, JSON or FHIR for standard output is held in a
    ///     temporary file until the stream is complete (`ChangeWriter.init(format:holdingUntilComplete:)`).
    ///   - clinicalResource: for FHIR, reads a clinical record's resource (`FHIRBulkWriter.clinicalResource`).
    /// - Throws: `OutputError.invalidRequest` for tables to standard output or `.export`;
    ///   `OutputError.cannotCreate`.
    public static func make(
        _ format: ObjectFormat, to destination: OutputDestination, parquet: ParquetOptions = ParquetOptions(),
        holdingStandardOutput: Bool = false, clinicalResource: ((String) throws -> Data?)? = nil
    ) throws -> ChangeWriter {
        switch format {
        case .ndjson, .json:
            if holdingStandardOutput && destination == .standardOutput {
                return try ChangeWriter(
                    format: format == .json ? .json : .ndjson, holdingUntilComplete: OutputDestination.standardOutputBuffer())
            }
            let opened = try destination.open()
            return ChangeWriter(format: format == .json ? .json : .ndjson, buffer: opened.buffer, file: opened.file)
        case .csv:
            guard case .path(let folder) = destination else {
                throw OutputError(
                    .invalidRequest, "CSV changes are several tables: write them to a folder with \(argument: .output, "DIR")", argument: .output)
            }
            return ChangeWriter(tables: try CSVWriter(folder: folder))
        case .parquet:
            guard case .path(let folder) = destination, !ParquetWriter.isSingleFile(folder) else {
                throw OutputError(
                    .invalidRequest, "Parquet changes are several tables: write them to a folder with \(argument: .output, "DIR")",
                    argument: .output)
            }
            return ChangeWriter(tables: try ParquetWriter(folder: folder, options: parquet))
        case .fhir:
            switch destination {
            case .standardOutput where holdingStandardOutput:
                return try ChangeWriter(fhirHoldingUntilComplete: OutputDestination.standardOutputBuffer(), clinicalResource: clinicalResource)
            case .standardOutput:
                let writer = FHIRBulkWriter(standardOutput: OutputDestination.standardOutputBuffer())
                writer.clinicalResource = clinicalResource
                return ChangeWriter(fhir: writer)
            case .path(let folder):
                let writer = try FHIRBulkWriter(folder: folder)
                writer.clinicalResource = clinicalResource
                return ChangeWriter(fhir: writer)
            }
        case .omh:
            throw OutputError(
                .invalidRequest,
                "\(argument: .format, "omh", neutral: "Open mHealth") writes data points, not changes: use ndjson, json, csv, parquet or fhir",
                argument: .format)
        case .export:
            throw OutputError(
                .invalidRequest,
                "\(argument: .format, "export", neutral: "the export format") writes objects, not changes: use ndjson, json, csv, parquet or fhir",
                argument: .format)
        }
    }
}
