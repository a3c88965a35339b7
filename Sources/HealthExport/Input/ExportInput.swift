/// What the person named as the export: a path (zip, folder or XML file, told apart by content,
/// never by name) or standard input.
public enum ExportInput: Sendable, Hashable {
    case path(String)
    case standardInput

    /// `-` means standard input, as in every Unix filter.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .path(argument)
    }

    /// How diagnostics name the input.
    public var displayName: String {
        switch self {
        case .path(let path): return path
        case .standardInput: return "<stdin>"
        }
    }
}

/// Where the export document was found and what lies beside it.
public struct ExportLayout: Sendable {
    public enum Container: String, Sendable {
        /// A zip archive (a file, or standard input spooled to a private temporary file).
        case zip
        /// An unzipped `apple_health_export` folder (or a folder holding one).
        case folder
        /// A bare XML document.
        case xml
        /// healthport's own NDJSON (`convert --format ndjson`), read back.
        case ndjson
        /// Android's Health Connect export: its SQLite database, alone or in its zip.
        case healthConnect
    }

    public var container: Container
    /// The document's path inside the zip or folder; `nil` for bare XML.
    public var documentPath: String?
    /// The folder the document sits in, inside the zip or folder (`apple_health_export`), with
    /// no trailing slash; empty when the document is at the top.
    public var exportRoot: String
    /// Files beside the document, relative to `exportRoot`: `workout-routes/route_….gpx`,
    /// `electrocardiograms/ecg_….csv`, `clinical-records/….json`, and anything else.
    public var sideFiles: [String]
    /// The document's size in bytes when known (uncompressed, for a zip).
    public var documentSize: Int64?

    public init(container: Container, documentPath: String?, exportRoot: String, sideFiles: [String], documentSize: Int64?) {
        self.container = container
        self.documentPath = documentPath
        self.exportRoot = exportRoot
        self.sideFiles = sideFiles
        self.documentSize = documentSize
    }
}
