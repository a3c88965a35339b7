extension ChangeWriter {
    /// The change writer for a format and a destination: NDJSON or JSON to a file or standard
    /// output, CSV or Parquet tables into a folder, FHIR into a folder (or its Observations and
    /// deletions to standard output).
    ///
    /// - Parameter holdingStandardOutput: NDJSON or JSON for standard output is held in a
    ///   temporary file until the stream is complete (`ChangeWriter.init(format:holdingUntilComplete:)`).
    /// - Throws: `OutputError.invalidRequest` for tables to standard output or `.export`;
    ///   `OutputError.cannotCreate`.
    public static func make(
        _ format: ObjectFormat, to destination: OutputDestination, parquet: ParquetOptions = ParquetOptions(),
        holdingStandardOutput: Bool = false
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
                throw OutputError(.invalidRequest, "CSV changes are several tables: write them to a folder with --output DIR")
            }
            return ChangeWriter(tables: try CSVWriter(folder: folder))
        case .parquet:
            guard case .path(let folder) = destination, !ParquetWriter.isSingleFile(folder) else {
                throw OutputError(.invalidRequest, "Parquet changes are several tables: write them to a folder with --output DIR")
            }
            return ChangeWriter(tables: try ParquetWriter(folder: folder, options: parquet))
        case .fhir:
            let writer: FHIRBulkWriter
            switch destination {
            case .standardOutput: writer = FHIRBulkWriter(standardOutput: OutputDestination.standardOutputBuffer())
            case .path(let folder): writer = try FHIRBulkWriter(folder: folder)
            }
            return ChangeWriter(fhir: writer)
        case .export:
            throw OutputError(.invalidRequest, "--format export writes objects, not changes: use ndjson, json, csv, parquet or fhir")
        }
    }
}
