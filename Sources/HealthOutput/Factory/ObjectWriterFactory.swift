import Foundation
import HealthJSON
import HealthModel

/// The object writer for a format and a destination: the one place writers are chosen.
///
/// For example:
/// ```swift
/// let made = try ObjectWriterFactory.make(.csv, to: OutputDestination("health-csv"), csvLayout: .folderOfTables)
/// ```
public enum ObjectWriterFactory {
    /// How CSV lays out its tables at a path: a conversion writes a folder of tables (one per
    /// type), a sorted query one table in a file.
    public enum CSVLayout: Sendable {
        case folderOfTables, singleTable
    }

    /// What an export archive (`--format export` to `X.zip`) carries: the source export's side
    /// files, read by path, and the files beyond those the objects name (admitted ECGs, the CDA
    /// document).
    public struct ArchiveContents {
        public var sideFile: (String) throws -> Data?
        public var additionalFiles: () throws -> [String]

        public init(sideFile: @escaping (String) throws -> Data?, additionalFiles: @escaping () throws -> [String]) {
            self.sideFile = sideFile
            self.additionalFiles = additionalFiles
        }
    }

    /// A writer, and whether chunks of a parallel read can be merged into it.
    public enum Made {
        /// Fed by chunks written on several threads, or object by object.
        case mergingChunks(any ChunkMergingWriter)
        /// Fed object by object, on one thread.
        case whole(any ObjectWriter)

        public var writer: any ObjectWriter {
            switch self {
            case .mergingChunks(let writer): return writer
            case .whole(let writer): return writer
            }
        }
    }

    /// - Parameters:
    ///   - archive: for `.export` to a path ending in `.zip`; without it such a path gets
    ///     export.xml. For `.fhir`, its `sideFile` reads the clinical records' FHIR resources
    ///     (without it they are left out and counted).
    ///   - parquet: how Parquet files are written. A Parquet path ending in `.parquet` is one
    ///     table's file, any other path a folder of tables.
    ///   - selectedType: the one type selected, if one is: an empty `.parquet` file still has
    ///     its columns.
    ///   - localTimes: whether samples carry their local times (NDJSON, JSON, CSV, Parquet),
    ///     and the person's zone for those that name none.
    /// - Throws: `OutputError.cannotCreate` when the destination cannot be created;
    ///   `OutputError.invalidRequest` for Parquet to standard output.
    public static func make(
        _ format: ObjectFormat, to destination: OutputDestination, csvLayout: CSVLayout, archive: ArchiveContents? = nil,
        parquet: ParquetOptions = ParquetOptions(), selectedType: String? = nil, localTimes: LocalTimeSetting = .none
    ) throws -> Made {
        switch (format, destination) {
        case (.ndjson, _):
            let writer = NDJSONWriter(try destination.open())
            writer.localTimes = localTimes.makeLocalTimes()
            return .mergingChunks(writer)
        case (.json, _):
            let writer = JSONDocumentWriter(try destination.open())
            writer.localTimes = localTimes.makeLocalTimes()
            return .whole(writer)
        case (.csv, .standardOutput):
            let writer = CSVWriter(standardOutput: OutputDestination.standardOutputBuffer())
            writer.localTimes = localTimes.makeLocalTimes()
            return .whole(writer)
        case (.csv, .path(let path)):
            switch csvLayout {
            case .folderOfTables:
                let writer = try CSVWriter(folder: path)
                writer.localTimes = localTimes.makeLocalTimes()
                return .mergingChunks(writer)
            case .singleTable:
                let writer = CSVWriter(file: try AtomicFile(destination: path))
                writer.localTimes = localTimes.makeLocalTimes()
                return .whole(writer)
            }
        case (.parquet, .standardOutput):
            throw OutputError(.invalidRequest, ParquetWriter.notOnStandardOutput, argument: .output)
        case (.parquet, .path(let path)):
            if ParquetWriter.isSingleFile(path) {
                let writer = ParquetWriter(file: try AtomicFile(destination: path), options: parquet)
                writer.selectedType = selectedType
                writer.localTimes = localTimes.makeLocalTimes()
                return .whole(writer)
            }
            let writer = try ParquetWriter(folder: path, options: parquet)
            writer.localTimes = localTimes.makeLocalTimes()
            return .whole(writer)
        case (.export, _):
            // A path ending in .zip is an archive with the side files, as Apple's export is.
            if case .path(let path) = destination, path.lowercased().hasSuffix(".zip"), let archive {
                let writer = try ExportArchiveWriter(destination: path, sideFile: archive.sideFile)
                writer.additionalFiles = try archive.additionalFiles()
                return .whole(writer)
            }
            return .whole(ExportXMLWriter(try destination.open()))
        case (.fhir, .standardOutput):
            let writer = FHIRBulkWriter(standardOutput: OutputDestination.standardOutputBuffer())
            writer.clinicalResource = archive?.sideFile
            return .whole(writer)
        case (.fhir, .path(let path)):
            let writer = try FHIRBulkWriter(folder: path)
            writer.clinicalResource = archive?.sideFile
            return .whole(writer)
        case (.omh, _):
            return .whole(OpenMHealthWriter(try destination.open()))
        }
    }
}
