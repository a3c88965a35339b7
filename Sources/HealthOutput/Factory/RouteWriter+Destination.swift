import HealthJSON

extension RouteWriter {
    /// A route writer of `format` to a destination: a file or standard output (GeoJSON,
    /// NDJSON), a folder (CSV and GPX write a file per route).
    ///
    /// - Throws: `OutputError.invalidRequest` for CSV or GPX to standard output;
    ///   `OutputError.cannotCreate`.
    public static func make(_ format: Format, to destination: OutputDestination) throws -> RouteWriter {
        switch format {
        case .geojson, .ndjson:
            let opened = try destination.open()
            return RouteWriter(format: format, buffer: opened.buffer, file: opened.file)
        case .csv, .gpx:
            guard case .path(let folder) = destination else {
                throw OutputError(
                    .invalidRequest,
                    "\(argument: .format, format.rawValue, neutral: "the \(format.rawValue) format") writes a file per route: name a folder with \(argument: .output)",
                    argument: .output)
            }
            return try RouteWriter(format: format, folder: folder)
        }
    }
}

extension AttachmentRecordWriter {
    /// A writer of ECG or clinical records (NDJSON, or one JSON array) to a destination.
    public static func make(json: Bool, to destination: OutputDestination) throws -> AttachmentRecordWriter {
        let opened = try destination.open()
        return AttachmentRecordWriter(json: json, buffer: opened.buffer, file: opened.file)
    }
}
