import Crypto
import Foundation
import HealthExport

/// An export arriving in a watched folder: whether it is complete yet, judged from the file
/// alone (`healthport import --watch`).
///
/// A browser, AirDrop or a sync client writes an export over seconds or minutes. It is
/// complete when its bytes say so — a zip's end-of-central-directory record, an XML document's
/// closing `</HealthData>` — and its size and modification time have not changed for the
/// settle time; one that stops changing without ever becoming complete was cut off.
///
/// Every file is opened non-blocking and checked with `fstat(2)` to be a regular file before a
/// byte is read (`openRegularFile`): an entry can be swapped for a FIFO or a link to a device
/// between the folder's listing and the read, and the watcher must never hang or spin on one.
struct ExportArrival {
    enum Form { case zip, folder, xml }

    /// The entry's name in the watched folder, as messages and the store give it.
    let name: String
    let path: String
    let form: Form

    /// Why an entry cannot be imported, in words for a one-line warning (no content of the
    /// export, only what the file is).
    struct Unusable: Error {
        var reason: String
    }

    /// The most entries a folder's signature looks at: an unzipped export holds a few thousand
    /// routes and ECGs; a folder of old exports or a link to `/` stops here.
    static let signatureLimit = 100_000

    /// Size and modification time (of every file, for a folder): equal twice means nothing
    /// wrote in between. A folder is walked without following links, at most four levels down.
    var signature: [Int64] {
        func stamp(_ status: stat) -> [Int64] {
            [Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)]
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return [-1] }
        guard form == .folder else { return stamp(status) }
        var result: [Int64] = []
        var count = 0
        func walk(_ folder: String, _ level: Int) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() where count < Self.signatureLimit {
                count += 1
                var status = stat()
                guard lstat(folder + "/" + name, &status) == 0 else { continue }
                result += stamp(status)
                if status.st_mode & S_IFMT == S_IFDIR && level < 4 { walk(folder + "/" + name, level + 1) }
            }
        }
        walk(path, 0)
        return result
    }

    /// The export's document: the file itself, or, for a folder, the one its content names
    /// (found as every reader finds it: `exportar.xml` too, never a copy beside `export.xml`).
    ///
    /// - Throws: `Unusable` when the file is not a regular file, or the folder holds no
    ///   export document (an empty folder, a folder of old exports) or several.
    func document() throws -> String {
        guard form == .folder else {
            _ = try Self.openRegularFile(path)
            return path
        }
        let layout: ExportLayout
        do {
            // Never waits: a folder swapped for a FIFO since the look is simply not an export.
            var opening = ExportReader.Opening()
            opening.writerWait = 0
            layout = try ExportReader(.path(path), opening: opening).layout
        } catch let error as ExportError where error.code == .noExportDocument {
            throw Unusable(reason: "a folder that holds no unzipped Apple Health export; skipped (zips in subfolders are not watched)")
        } catch let error as ExportError {
            throw Unusable(reason: error.message + "; skipped")
        }
        guard layout.container == .folder, let document = layout.documentPath else {
            throw Unusable(reason: "holds no Apple Health export document; skipped")
        }
        return path + "/" + document
    }

    /// Whether the bytes of `document` say the export is whole.
    func isComplete(document: String) -> Bool {
        switch form {
        case .zip: return Self.hasEndOfCentralDirectory(document)
        case .xml, .folder: return Self.endsWithHealthDataClose(document)
        }
    }

    /// Opens `path` for reading if it is a regular file, without ever blocking in `open(2)`.
    ///
    /// - Throws: `Unusable` saying what it is instead, or why it cannot be opened.
    static func openRegularFile(_ path: String) throws -> FileHandle {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw Unusable(reason: "cannot be opened: \(String(cString: strerror(errno))); skipped")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            let kind = status.st_mode & S_IFMT
            close(descriptor)
            throw Unusable(reason: "not a regular file (\(WatchedFolder.describe(kind))); skipped")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The last `count` bytes of a regular file (fewer when it is shorter; none when it cannot
    /// be read).
    static func tail(_ path: String, _ count: UInt64) -> [UInt8] {
        guard let handle = try? openRegularFile(path) else { return [] }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return [] }
        let length = min(size, count)
        guard (try? handle.seek(toOffset: size - length)) != nil, let data = try? handle.read(upToCount: Int(length)) else { return [] }
        return [UInt8](data)
    }

    /// The zip's end-of-central-directory record (`PK\u{5}\u{6}`) in its last 64 KiB + 22 bytes,
    /// where the format puts it (APPNOTE 4.3.16).
    static func hasEndOfCentralDirectory(_ path: String) -> Bool {
        let bytes = tail(path, 65_536 + 22)
        guard bytes.count >= 22 else { return false }
        for start in stride(from: bytes.count - 22, through: 0, by: -1)
        where bytes[start] == 0x50 && bytes[start + 1] == 0x4B && bytes[start + 2] == 0x05 && bytes[start + 3] == 0x06 {
            return true
        }
        return false
    }

    /// An XML export ends with `</HealthData>` and white space.
    static func endsWithHealthDataClose(_ path: String) -> Bool {
        let text = String(decoding: tail(path, 256), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.hasSuffix("</HealthData>")
    }

    /// SHA-256 of the export's bytes (a folder: of its document), hex: how the store knows an
    /// export again whatever its name.
    ///
    /// - Throws: `Unusable` when `document` is not a regular file (any more) or cannot be read.
    static func digest(of document: String) throws -> String {
        let handle = try openRegularFile(document)
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        } catch {
            throw Unusable(reason: "cannot be read: \(Self.systemMessage(error)); skipped")
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The system's words for a failed read (`Input/output error`), not Foundation's wrapping.
    private static func systemMessage(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.domain == NSPOSIXErrorDomain ? underlying?.code : nil { return String(cString: strerror(Int32(code))) }
        if (error as NSError).domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32((error as NSError).code))) }
        return "read failed"
    }
}
