import Crypto
import Foundation

/// An export arriving in a watched folder: whether it is complete yet, judged from the file
/// alone (`healthport import --watch`).
///
/// A browser, AirDrop or a sync client writes an export over seconds or minutes. It is
/// complete when its bytes say so — a zip's end-of-central-directory record, an XML document's
/// closing `</HealthData>` — and its size and modification time have not changed for the
/// settle time; one that stops changing without ever becoming complete was cut off.
struct ExportArrival {
    enum Form { case zip, folder, xml }

    let path: String
    let form: Form

    /// What a watched folder's entry is, or `nil` for one to leave alone: hidden files, the
    /// partial downloads browsers and sync clients write (`.part`, `.crdownload`, `.download`,
    /// `.icloud` placeholders, `.tmp`), anything not a zip, an XML file or an export folder.
    init?(folder: String, name: String) {
        guard !name.hasPrefix("."), !name.hasPrefix("~") else { return nil }
        let lowered = name.lowercased()
        for suffix in [".part", ".crdownload", ".download", ".icloud", ".tmp", ".partial"] where lowered.hasSuffix(suffix) {
            return nil
        }
        path = folder + "/" + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            form = .folder
        } else if lowered.hasSuffix(".zip") {
            form = .zip
        } else if lowered.hasSuffix(".xml") {
            form = .xml
        } else {
            return nil
        }
    }

    /// Size and modification time (of every file, for a folder): equal twice means nothing
    /// wrote in between.
    var signature: [Int64] {
        func stamp(_ path: String) -> [Int64] {
            var status = stat()
            guard stat(path, &status) == 0 else { return [-1] }
            return [Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)]
        }
        guard form == .folder else { return stamp(path) }
        var result: [Int64] = []
        let files = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
        for file in files { result += stamp(path + "/" + file) }
        return result
    }

    /// The document of a folder export (`export.xml`, possibly inside `apple_health_export/`).
    var document: String? {
        switch form {
        case .zip: return nil
        case .xml: return path
        case .folder:
            for candidate in ["export.xml", "apple_health_export/export.xml", "Export.xml", "apple_health_export/Export.xml"] {
                let full = path + "/" + candidate
                if FileManager.default.fileExists(atPath: full) { return full }
            }
            return nil
        }
    }

    /// Whether the bytes say the export is whole.
    var isComplete: Bool {
        switch form {
        case .zip: return Self.hasEndOfCentralDirectory(path)
        case .xml, .folder: return document.map(Self.endsWithHealthDataClose) ?? false
        }
    }

    /// The zip's end-of-central-directory record (`PK\u{5}\u{6}`) in its last 64 KiB + 22 bytes,
    /// where the format puts it (APPNOTE 4.3.16).
    static func hasEndOfCentralDirectory(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return false }
        let tail = min(size, 65_536 + 22)
        guard (try? handle.seek(toOffset: size - tail)) != nil, let data = try? handle.read(upToCount: Int(tail)) else { return false }
        let bytes = [UInt8](data)
        guard bytes.count >= 22 else { return false }
        for start in stride(from: bytes.count - 22, through: 0, by: -1)
        where bytes[start] == 0x50 && bytes[start + 1] == 0x4B && bytes[start + 2] == 0x05 && bytes[start + 3] == 0x06 {
            return true
        }
        return false
    }

    /// An XML export ends with `</HealthData>` and white space.
    static func endsWithHealthDataClose(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return false }
        let tail = min(size, 256)
        guard (try? handle.seek(toOffset: size - tail)) != nil, let data = try? handle.read(upToCount: Int(tail)) else { return false }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.hasSuffix("</HealthData>")
    }

    /// SHA-256 of the export's bytes (a folder: of its document), hex: how the store knows an
    /// export again whatever its name.
    var digest: String {
        get throws {
            let file = form == .folder ? (document ?? path) : path
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CocoaError(.fileReadNoSuchFile)
            }
            defer { try? handle.close() }
            var hasher = SHA256()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
            return hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }
    }
}
