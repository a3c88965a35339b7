import Foundation
import HealthModel
import ZIPFoundation

/// Finding the export: a zip (its document found by content, hostile archives refused), an
/// unzipped folder, a bare document, or standard input (spooled when it is a zip).
extension ExportReader {
    static func openZip(url: URL, displayName: String) throws -> (Source, ExportLayout) {
        let directory = ZipDirectory(path: url.path)
        if let directory, let refusal = directory.refusal() {
            throw ExportError(refusal.code, refusal.message, at: SourceLocation(file: displayName, member: refusal.member))
        }
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw ExportError(
                .malformedArchive, "not a readable zip archive (cut off or damaged)", at: SourceLocation(file: displayName))
        }
        var entries: [Entry] = []
        for entry in archive { entries.append(entry) }
        let candidates = entries.filter { $0.type == .file && ContentSniffer.isDocumentCandidate($0.path) }
            .sorted { (ContentSniffer.candidateRank($0.path), $0.path) < (ContentSniffer.candidateRank($1.path), $1.path) }
        struct SniffDone: Error {}
        for candidate in candidates {
            var prefix: [UInt8] = []
            do {
                _ = try archive.extract(candidate, bufferSize: 4096, skipCRC32: true) { data in
                    prefix.append(contentsOf: data)
                    if prefix.count >= 4096 { throw SniffDone() }
                }
            } catch is SniffDone {
            } catch {
                throw ExportError(
                    .malformedArchive, "the zip archive is damaged or cut off (\(error))",
                    at: SourceLocation(file: displayName, member: candidate.path))
            }
            guard ContentSniffer.isHealthDataDocument(prefix) else { continue }
            try checkExpansion(candidate, displayName: displayName)
            let root = candidate.path.split(separator: "/").dropLast().joined(separator: "/")
            let rootPrefix = root.isEmpty ? "" : root + "/"
            let sideFiles = entries.filter { $0.type == .file && $0.path != candidate.path && $0.path.hasPrefix(rootPrefix) }
                .map { String($0.path.dropFirst(rootPrefix.count)) }
                .filter { !$0.hasPrefix("__MACOSX") && !$0.split(separator: "/").contains(where: { $0.hasPrefix("._") || $0 == ".DS_Store" }) }
            let layout = ExportLayout(
                container: .zip, documentPath: candidate.path, exportRoot: root, sideFiles: sideFiles.sorted(),
                documentSize: Int64(exactly: candidate.uncompressedSize))
            let document = directory?.entries.first { $0.name == candidate.path }.flatMap { ZipDocumentStream(path: url.path, entry: $0) }
            return (.zip(archive, candidate, document), layout)
        }
        throw ExportError(.notAnExport, "the zip archive holds no Apple Health export document", at: SourceLocation(file: displayName))
    }

    /// Refuses an entry that would expand beyond `ZipLimits` (a zip bomb).
    static func checkExpansion(_ entry: Entry, displayName: String) throws {
        let ratio = entry.compressedSize > 0 ? entry.uncompressedSize / entry.compressedSize : 0
        guard ratio <= ZipLimits.ratio, entry.uncompressedSize <= ZipLimits.maximumSize else {
            throw ExportError(
                .limitExceeded,
                "refused: \(entry.path.prefix(80)) would expand \(ratio) times to \(entry.uncompressedSize >> 20) MiB (limits: \(ZipLimits.ratio) times, \(ZipLimits.maximumSize >> 30) GiB; \(ZipLimits.environmentVariable) raises the first)",
                at: SourceLocation(file: displayName, member: entry.path))
        }
    }

    /// The side files beside a bare `export.xml` given from an unzipped export: only the export's
    /// own folders are looked at (never a whole home directory).
    static func sideFilesBeside(_ path: String) -> [String] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var files: [String] = []
        for subfolder in ["workout-routes", "electrocardiograms", "clinical-records"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(subfolder).path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") && files.count < 1_000_000 { files.append(subfolder + "/" + name) }
        }
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("export_cda.xml").path), !path.hasSuffix("export_cda.xml") {
            files.append("export_cda.xml")
        }
        return files
    }

    static func openFolder(_ path: String) throws -> (Source, ExportLayout) {
        let manager = FileManager.default
        var candidates: [String] = []
        func listXML(_ relative: String) {
            let full = relative.isEmpty ? path : path + "/" + relative
            guard let names = try? manager.contentsOfDirectory(atPath: full) else { return }
            for name in names {
                let candidate = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: path + "/" + candidate, isDirectory: &isDirectory) {
                    if isDirectory.boolValue {
                        if relative.split(separator: "/").count < 2, name != "__MACOSX" { listXML(candidate) }
                    } else if ContentSniffer.isDocumentCandidate(candidate) {
                        candidates.append(candidate)
                    }
                }
            }
        }
        listXML("")
        candidates.sort { (ContentSniffer.candidateRank($0), $0) < (ContentSniffer.candidateRank($1), $1) }
        for candidate in candidates {
            guard let file = FileByteSource.open(path: path + "/" + candidate),
                let prefix = try? file.readPrefix(4096), ContentSniffer.isHealthDataDocument(prefix)
            else { continue }
            let root = candidate.split(separator: "/").dropLast().joined(separator: "/")
            let rootPath = root.isEmpty ? path : path + "/" + root
            var sideFiles: [String] = []
            if let enumerator = manager.enumerator(atPath: rootPath) {
                while let item = enumerator.nextObject() as? String {
                    var isDirectory: ObjCBool = false
                    guard item != candidate.split(separator: "/").last.map(String.init),
                        manager.fileExists(atPath: rootPath + "/" + item, isDirectory: &isDirectory), !isDirectory.boolValue,
                        !item.split(separator: "/").contains(where: { $0.hasPrefix("._") || $0 == ".DS_Store" })
                    else { continue }
                    sideFiles.append(item)
                }
            }
            let size = (try? manager.attributesOfItem(atPath: path + "/" + candidate)[.size] as? NSNumber)?.int64Value
            return (
                .file(path: path + "/" + candidate),
                ExportLayout(container: .folder, documentPath: candidate, exportRoot: root, sideFiles: sideFiles.sorted(), documentSize: size)
            )
        }
        throw ExportError(.notAnExport, "the folder holds no Apple Health export document", at: SourceLocation(file: path))
    }

    /// Copies a zip arriving on standard input to a private temporary file.
    static func spool(prefix: [UInt8], rest: FileByteSource) throws -> URL {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array((directory + "/healthport-stdin-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ExportError(.ioError, "cannot create a temporary file for the zip on standard input: \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        fchmod(fd, 0o600)
        defer { close(fd) }
        func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    unlink(path)
                    throw ExportError(.ioError, "cannot spool standard input: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
        try prefix.withUnsafeBytes { try writeAll($0) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try rest.read(into: buffer)
            if n == 0 { break }
            try writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return URL(fileURLWithPath: path)
    }
}
