extension ChangeWriter {
    /// The change writer for a format and a destination: NDJSON or JSON to a file or standard
    /// output, CSV or Parquet tables into a folder.
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
        case .export:
            throw OutputError(
                .invalidRequest,
                "\(argument: .format, "export", neutral: "the export format") writes objects, not changes: use ndjson, json, csv or parquet",
                argument: .format)
        }
    }
}
