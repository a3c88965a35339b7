import HealthOutput
import HealthQuery

extension AttachmentRecordWriter {
    /// A writer to `path`, or to standard output for `-`.
    static func make(json: Bool, to path: String) throws -> AttachmentRecordWriter {
        path == "-"
            ? AttachmentRecordWriter(json: json, buffer: OutputBuffer(descriptor: 1), file: nil)
            : AttachmentRecordWriter(json: json, buffer: nil, file: try AtomicFile(destination: path))
    }
}

extension RouteWriter {
    /// A writer of `format` to `path`: a file or standard output (GeoJSON, NDJSON), a folder
    /// (CSV and GPX write a file per route).
    static func make(_ format: Format, to path: String) throws -> RouteWriter {
        switch format {
        case .geojson, .ndjson:
            return path == "-"
                ? RouteWriter(format: format, buffer: OutputBuffer(descriptor: 1), file: nil)
                : RouteWriter(format: format, buffer: nil, file: try AtomicFile(destination: path))
        case .csv, .gpx:
            guard path != "-" else {
                throw QueryError(.errorInvalidArgument, "--format \(format.rawValue) writes a file per route: name a folder with --output")
            }
            return try RouteWriter(format: format, folder: path)
        }
    }
}
