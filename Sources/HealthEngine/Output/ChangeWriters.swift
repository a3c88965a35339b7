import HealthOutput
import HealthQuery

extension ChangeWriter {
    /// The change writer for a format and a destination (`-` is standard output).
    static func make(_ format: ObjectFormat, to destination: String) throws -> ChangeWriter {
        switch format {
        case .ndjson, .json:
            let changeFormat: ChangeWriter.Format = format == .json ? .json : .ndjson
            if destination == "-" {
                return ChangeWriter(format: changeFormat, buffer: ObjectWriters.standardOutput(), file: nil)
            }
            return ChangeWriter(format: changeFormat, buffer: nil, file: try AtomicFile(destination: destination))
        case .csv:
            guard destination != "-" else {
                throw QueryError(.errorInvalidArgument, "CSV changes are several tables: write them to a folder with --output DIR")
            }
            return try ChangeWriter(csvFolder: destination)
        case .export:
            throw QueryError(.errorInvalidArgument, "--format export writes objects, not changes: use ndjson, json or csv")
        }
    }
}
