extension ChangeWriter {
    /// The change writer for a format and a destination: NDJSON or JSON to a file or standard
    /// output, CSV tables into a folder.
    ///
    /// - Throws: `OutputError.invalidRequest` for CSV to standard output or `.export`;
    ///   `OutputError.cannotCreate`.
    public static func make(_ format: ObjectFormat, to destination: OutputDestination) throws -> ChangeWriter {
        switch format {
        case .ndjson, .json:
            let opened = try destination.open()
            return ChangeWriter(format: format == .json ? .json : .ndjson, buffer: opened.buffer, file: opened.file)
        case .csv:
            guard case .path(let folder) = destination else {
                throw OutputError(.invalidRequest, "CSV changes are several tables: write them to a folder with --output DIR")
            }
            return try ChangeWriter(csvFolder: folder)
        case .export:
            throw OutputError(.invalidRequest, "--format export writes objects, not changes: use ndjson, json or csv")
        }
    }
}
