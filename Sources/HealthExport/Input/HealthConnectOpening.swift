#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthConnect
import HealthModel
import ZIPFoundation

/// Finding a Health Connect export (Android's `health_connect_export.zip`, or the
/// `health_connect_export.db` inside it) by content: an SQLite database, alone or in a zip.
/// SQLite reads a file, not a stream, so a database in a zip (or on standard input) is first
/// copied to a private temporary file (mode 0600), within the zip's expansion limits, and
/// unlinked as soon as SQLite has it open.
extension ExportReader {
    /// The member a zip's database is looked for under: any `.db` at most two folders deep
    /// whose first bytes are SQLite's (Android names it `health_connect_export.db`).
    static func isDatabaseCandidate(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        guard let name = components.last, components.count <= 3, !name.hasPrefix("._"), !components.contains("__MACOSX") else {
            return false
        }
        return name.lowercased().hasSuffix(".db")
    }

    /// What a zip's look for a Health Connect database found: the database opened, or none,
    /// with why a database that is SQLite's was not Health Connect's (said when the zip holds no
    /// Apple export either, rather than "no export document").
    struct HealthConnectZip {
        var opened: (Source, ExportLayout)?
        var refusal: ExportError?
    }

    /// Opens the Health Connect database in the zip at `url`; when the zip holds none it is then
    /// looked at as Apple's export.
    static func openHealthConnectZip(url: URL, displayName: String, maximumExpansion: UInt64) throws -> HealthConnectZip {
        // Not a readable zip: the reader of Apple's exports says why (or salvages it).
        guard ZipDirectory.hasEndRecord(path: url.path), let archive = try? Archive(url: url, accessMode: .read, pathEncoding: nil) else {
            return HealthConnectZip()
        }
        var refusal: ExportError? = nil
        struct SniffDone: Error {}
        // Inflated by the export document's own path (`ZipDocumentStream`: zlib, bounded by the
        // size the directory declares, CRC checked), never the zip library's: on damaged deflate
        // data the library's loop ran for minutes (a finding of the export harness).
        let directory = ZipDirectory(path: url.path)
        for entry in archive where entry.type == .file && isDatabaseCandidate(entry.path) {
            let location = SourceLocation(file: displayName, member: entry.path)
            guard let stream = directory?.entries.first(where: { $0.name == entry.path }).flatMap({ ZipDocumentStream(path: url.path, entry: $0) })
            else {
                throw ExportError(.malformedArchive, "the zip archive is damaged or cut off (no directory entry for the database)", at: location)
            }
            var prefix: [UInt8] = []
            do {
                try stream.stream(chunkSize: 4096, location: location) { bytes in
                    prefix.append(contentsOf: bytes)
                    if prefix.count >= 16 { throw SniffDone() }
                }
            } catch is SniffDone {
            }
            guard HealthConnectReader.isSQLite(prefix) else { continue }
            try checkExpansion(entry, displayName: displayName, ratio: maximumExpansion)
            let path = try temporaryFile(named: "healthport-healthconnect") { fd in
                try stream.stream(chunkSize: chunkSize, location: location) { bytes in try writeAll(fd, bytes) }
            }
            defer { unlink(path) }
            let reader: HealthConnectReader
            do {
                reader = try openHealthConnect(path: path, location: location)
            } catch let error as ExportError where error.code == .notAnExport {
                // Some other program's database: the zip may still hold an export.
                refusal = refusal ?? error
                continue
            }
            let layout = ExportLayout(
                container: .healthConnect, documentPath: entry.path, exportRoot: "", sideFiles: [],
                documentSize: Int64(exactly: entry.uncompressedSize))
            return HealthConnectZip(opened: (.healthConnect(reader), layout))
        }
        return HealthConnectZip(refusal: refusal)
    }

    /// Opens a database given as a file (or spooled from standard input), mapping the
    /// reader's error to the export's, located at `location`.
    static func openHealthConnect(path: String, location: SourceLocation) throws -> HealthConnectReader {
        do {
            return try HealthConnectReader(path: path)
        } catch {
            throw ExportError(healthConnect: error, at: location)
        }
    }

    /// Copies standard input (a zip, or an SQLite database) to a private temporary file in the
    /// system's temporary folder, removed again if the copy fails.
    static func spoolStandardInput(prefix: [UInt8], rest: FileByteSource) throws -> String {
        try temporaryFile(named: "healthport-stdin") { fd in
            try prefix.withUnsafeBytes { try writeAll(fd, $0) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let n = try rest.read(into: buffer)
                if n == 0 { break }
                try writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
        }
    }

    /// A private temporary file (mode 0600) in the system's temporary folder, filled by `fill`;
    /// removed again when `fill` throws.
    private static func temporaryFile(named prefix: String, fill: (Int32) throws -> Void) throws -> String {
        let directory = FileManager.default.temporaryDirectory.path
        var template = Array((directory + "/\(prefix)-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ExportError(.ioError, "cannot create a temporary file (\(prefix)): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        fchmod(fd, 0o600)
        defer { close(fd) }
        do {
            try fill(fd)
        } catch {
            unlink(path)
            throw error
        }
        return path
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw ExportError(.ioError, "cannot write a temporary file: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Reads the database into `sink` (ungated: `readUngated`'s part for Health Connect).
    func readHealthConnect(_ reader: HealthConnectReader, into sink: any ObjectSink, types: Set<String>?) throws -> Summary {
        let read: HealthConnectReader.Summary
        do {
            read = try reader.read(into: sink, types: types)
        } catch let error as HealthConnectError {
            throw ExportError(healthConnect: error, at: documentLocation)
        }
        return Summary(
            header: read.header, objectCount: read.objectCount, replacedByteCount: 0, isFragment: false, passedThrough: [:], warnings: [])
    }
}

extension ExportError {
    /// The export's error for a Health Connect database's, with the place in the database
    /// (table, row, column) leading the message.
    init(healthConnect error: HealthConnectError, at location: SourceLocation) {
        let code: Code
        switch error.code {
        case .notADatabase, .notHealthConnect: code = .notAnExport
        case .invalidValue: code = .invalidAttribute
        case .limitExceeded: code = .limitExceeded
        case .readFailed: code = .ioError
        }
        self.init(code, "Health Connect export: \(error.description)", at: location)
    }
}
