import Foundation
import HealthJSON
import HealthModel
import ZIPFoundation

/// `--format export --output X.zip`: an archive laid out like the Health app's —
/// `apple_health_export/export.xml` plus the side files (`workout-routes/`,
/// `clinical-records/`, `electrocardiograms/`, `export_cda.xml`) of the objects that were
/// written, and nothing else.
///
/// The document is streamed to a private temporary file (never held in memory), then deflated
/// into a temporary zip beside the destination, which is renamed into place only when
/// complete (mode 0600). Side files are copied from the source as they are.
public final class ExportArchiveWriter: ObjectWriter {
    public static let folder = "apple_health_export"

    private let destination: String
    private let document: AtomicFile
    private let writer: ExportXMLWriter
    private let sideFile: (String) throws -> Data?
    /// Side files to carry besides those the written objects refer to (admitted ECGs, the CDA
    /// document), relative to the export folder.
    public var additionalFiles: [String] = []
    private var finished = false

    /// - Parameters:
    ///   - sideFile: reads a side file of the source export by its path relative to the export
    ///     folder; `nil` when the source lacks it (the archive then lacks it too).
    public init(destination: String, sideFile: @escaping (String) throws -> Data?) throws {
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        // The document's temporary file lives beside the destination; it is never renamed.
        document = try AtomicFile(destination: url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).export.xml").path, needsName: true)
        writer = ExportXMLWriter(buffer: document.buffer)
        self.sideFile = sideFile
    }

    public func begin(_ header: ExportHeader) throws { try writer.begin(header) }
    public func write(_ object: HealthObject) throws { try writer.write(object) }

    /// The side files the archive carries, relative to the export folder.
    public var carriedFiles: [String] {
        var seen = Set<String>()
        return (writer.referencedFiles + additionalFiles).filter { seen.insert($0).inserted }
    }

    public func finish() throws {
        guard !finished else { return }
        finished = true
        document.buffer.append("</HealthData>\n")
        let archive: AtomicFile
        do {
            try document.buffer.flush()
            archive = try AtomicFile(destination: destination, needsName: true)
            // An empty zip (an end-of-central-directory record) for ZIPFoundation to update.
            archive.buffer.append(contentsOf: [0x50, 0x4B, 0x05, 0x06] + Array(repeating: 0, count: 18))
            try archive.buffer.flush()
        } catch {
            document.abandon()
            throw error
        }
        defer { document.abandon() }
        do {
            let zip = try Archive(url: URL(fileURLWithPath: archive.temporaryPath), accessMode: .update)
            try zip.addEntry(
                with: Self.folder + "/export.xml", fileURL: URL(fileURLWithPath: document.temporaryPath), compressionMethod: .deflate)
            for path in carriedFiles {
                guard let data = try sideFile(path) else { continue }
                try zip.addEntry(
                    with: Self.folder + "/" + path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
                ) { position, size in
                    data.subdata(in: Int(position)..<(Int(position) + size))
                }
            }
        } catch let error as OutputError {
            archive.abandon()
            throw error
        } catch {
            archive.abandon()
            throw OutputError(.ioError, "cannot write the archive: \(error)", path: destination)
        }
        // Synced and renamed into place whole, like every output.
        try archive.commit()
    }

    public func abandon() {
        finished = true
        document.abandon()
    }
}
