import Foundation
import HealthModel
import ZIPFoundation

/// Finding the export: a zip (its document found by content, hostile archives refused), an
/// unzipped folder, a bare document, or standard input (spooled when it is a zip).
extension ExportReader {
    static func openZip(url: URL, displayName: String, maximumExpansion: UInt64) throws -> (Source, ExportLayout) {
        let directory = ZipDirectory(path: url.path)
        if let directory, let refusal = directory.refusal() {
            throw ExportError(refusal.code, refusal.message, at: SourceLocation(file: displayName, member: refusal.member))
        }
        // The zip library lists the entries of a zip whose central directory healthport read
        // itself (`ZipDirectory`), and inflates none of them: the document, the sniffed prefixes
        // and the side files are inflated by `ZipDocumentStream`, bounded by the directory's
        // sizes, since the library's extraction does not stop on a damaged entry. A zip without a
        // readable directory is refused here (a cut-off zip, which `--salvage` reads).
        guard let directory, let archive = try? Archive(url: url, accessMode: .read, pathEncoding: nil) else {
            throw ExportError(
                .malformedArchive, "not a readable zip archive (cut off or damaged)", at: SourceLocation(file: displayName))
        }
        var entries: [Entry] = []
        for entry in archive { entries.append(entry) }
        let candidates = entries.filter { $0.type == .file && ContentSniffer.isDocumentCandidate($0.path) }
            .sorted { $0.path < $1.path }
        struct SniffDone: Error {}
        // The directory's entries by name (the opening refused a name given twice).
        let directoryEntries = Dictionary(directory.entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var documents: [Entry] = []
        // A candidate too damaged to sniff is passed over, as is one that is not an export; its
        // error is the answer when no candidate is an export.
        var damage: ExportError? = nil
        for candidate in candidates {
            let location = SourceLocation(file: displayName, member: candidate.path)
            guard let stream = directoryEntries[candidate.path].flatMap({ ZipDocumentStream(path: url.path, entry: $0) }) else {
                throw ExportError(.malformedArchive, "the zip archive is damaged (no directory entry for a member it lists)", at: location)
            }
            var prefix: [UInt8] = []
            do {
                try stream.stream(chunkSize: 4096, location: location) { bytes in
                    prefix.append(contentsOf: bytes)
                    if prefix.count >= 4096 { throw SniffDone() }
                }
            } catch is SniffDone {
            } catch let error as ExportError {
                // Damaged past its first bytes: a document still, whose read reports the damage
                // where it is.
                damage = damage ?? error
            }
            if ContentSniffer.isHealthDataDocument(prefix) { documents.append(candidate) }
        }
        if documents.isEmpty, let damage { throw damage }
        let chosen = try ContentSniffer.choose(
            documents.map(\.path), in: "zip archive", hint: "extract the one to read (unzip -p) and give it as the input",
            at: SourceLocation(file: displayName))
        let candidate = documents.first { $0.path == chosen }!
        try checkExpansion(candidate, displayName: displayName, ratio: maximumExpansion)
        let root = candidate.path.split(separator: "/").dropLast().joined(separator: "/")
        let rootPrefix = root.isEmpty ? "" : root + "/"
        let sideFiles = entries.filter { $0.type == .file && $0.path != candidate.path && $0.path.hasPrefix(rootPrefix) }
            .map { String($0.path.dropFirst(rootPrefix.count)) }
            .filter { !$0.hasPrefix("__MACOSX") && !$0.split(separator: "/").contains(where: { $0.hasPrefix("._") || $0 == ".DS_Store" }) }
        let layout = ExportLayout(
            container: .zip, documentPath: candidate.path, exportRoot: root, sideFiles: sideFiles.sorted(),
            documentSize: Int64(exactly: candidate.uncompressedSize))
        guard let document = directoryEntries[candidate.path].flatMap({ ZipDocumentStream(path: url.path, entry: $0) }) else {
            throw ExportError(
                .malformedArchive, "the zip archive is damaged (no directory entry for its document)",
                at: SourceLocation(file: displayName, member: candidate.path))
        }
        return (.zip(archive, candidate, document), layout)
    }

    /// Refuses an entry that would expand more than `limit` times, or beyond `ZipLimits.maximumSize`
    /// (a zip bomb).
    static func checkExpansion(_ entry: Entry, displayName: String, ratio limit: UInt64) throws {
        try checkExpansion(
            member: entry.path, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize, displayName: displayName,
            ratio: limit)
    }

    /// The same, from the central directory's sizes (`ZipSideFiles`).
    static func checkExpansion(member: String, compressedSize: UInt64, uncompressedSize: UInt64, displayName: String, ratio limit: UInt64) throws {
        let ratio = compressedSize > 0 ? uncompressedSize / compressedSize : 0
        guard ratio <= limit, uncompressedSize <= ZipLimits.maximumSize else {
            throw ExportError(
                .limitExceeded,
                "refused: \(member.prefix(80)) would expand \(ratio) times to \(uncompressedSize >> 20) MiB (limits: \(limit) times, \(ZipLimits.maximumSize >> 30) GiB; HEALTHPORT_MAX_EXPANSION raises the first)",
                at: SourceLocation(file: displayName, member: member))
        }
    }

    /// The side files beside a bare `export.xml` given from an unzipped export: only the export's
    /// own folders are looked at (never a whole home directory).
    static func sideFilesBeside(_ path: String) -> [String] {
        // The text before the last slash: `URL(fileURLWithPath:)` would `stat` the path first.
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var files: [String] = []
        for subfolder in ["workout-routes", "electrocardiograms", "clinical-records"] {
            let names = regularFiles(under: folder + "/" + subfolder, depth: 0, limit: 1_000_000 - files.count)
            for name in names where !name.hasPrefix(".") { files.append(subfolder + "/" + name) }
        }
        var status = stat()
        if stat(folder + "/export_cda.xml", &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            !path.hasSuffix("export_cda.xml")
        {
            files.append("export_cda.xml")
        }
        return files
    }

    /// Finds the document of an unzipped export: the `.xml` files at most two folders deep whose
    /// first bytes say `HealthData` (`ContentSniffer.choose` picks among several).
    ///
    /// Only regular files are opened (a FIFO or a device named `export.xml` is passed over, and
    /// cannot block the open or feed it endless bytes); the walk's depth bounds a link loop.
    static func openFolder(_ path: String) throws -> (Source, ExportLayout) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: path) else {
            // Why the folder cannot be listed (permission, most often), not "holds no export".
            let directory = opendir(path)
            let code = directory == nil ? errno : EIO
            if let directory { closedir(directory) }
            throw ExportError.cannotOpen(path, errno: code)
        }
        var candidates: [String] = []
        func listXML(_ relative: String, _ names: [String]) {
            for name in names.sorted() {
                let candidate = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard stat(path + "/" + candidate, &status) == 0 else { continue }
                let kind = InputKind(mode: status.st_mode)
                if kind == .folder {
                    if relative.split(separator: "/").count < 2, name != "__MACOSX",
                        let inner = try? manager.contentsOfDirectory(atPath: path + "/" + candidate)
                    {
                        listXML(candidate, inner)
                    }
                } else if kind == .regular && ContentSniffer.isDocumentCandidate(candidate) {
                    candidates.append(candidate)
                }
            }
        }
        listXML("", names)
        let documents = candidates.filter { candidate in
            guard let file = FileByteSource.open(path: path + "/" + candidate), let prefix = try? file.readPrefix(4096) else {
                return false
            }
            return ContentSniffer.isHealthDataDocument(prefix)
        }
        let candidate = try ContentSniffer.choose(
            documents, in: "folder", hint: "give the one to read as the input", at: SourceLocation(file: path))
        let root = candidate.split(separator: "/").dropLast().joined(separator: "/")
        let rootPath = root.isEmpty ? path : path + "/" + root
        let documentName = candidate.split(separator: "/").last.map(String.init)
        let sideFiles = regularFiles(under: rootPath).filter { item in
            item != documentName && !item.split(separator: "/").contains(where: { $0.hasPrefix("._") || $0 == ".DS_Store" })
        }
        let size = FileSize.of(path + "/" + candidate)
        return (
            .file(path: path + "/" + candidate),
            ExportLayout(container: .folder, documentPath: candidate, exportRoot: root, sideFiles: sideFiles.sorted(), documentSize: size)
        )
    }

    /// The regular files under `folder` (symbolic links to them included), relative to it, at
    /// most `depth` folders down and `limit` in all.
    ///
    /// Links to folders are not followed, so a loop cannot make the walk endless; FIFOs,
    /// sockets and devices are left out, so reading a side file can never block or run on.
    static func regularFiles(under folder: String, depth: Int = 8, limit: Int = 1_000_000) -> [String] {
        var files: [String] = []
        func walk(_ relative: String, _ level: Int) {
            let full = relative.isEmpty ? folder : folder + "/" + relative
            // Most exports lack some of the folders asked for: `stat` says so without the error
            // Foundation would build for each.
            var folderStatus = stat()
            guard stat(full, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR,
                let names = try? FileManager.default.contentsOfDirectory(atPath: full)
            else { return }
            for name in names.sorted() where files.count < limit {
                let item = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(folder + "/" + item, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    if level < depth { walk(item, level + 1) }
                case S_IFREG:
                    files.append(item)
                case S_IFLNK:
                    if stat(folder + "/" + item, &status) == 0, status.st_mode & S_IFMT == S_IFREG { files.append(item) }
                default:
                    break
                }
            }
        }
        walk("", 0)
        return files
    }

    /// Copies a zip arriving on standard input to a private temporary file (`spoolStandardInput`).
    static func spool(prefix: [UInt8], rest: FileByteSource) throws -> URL {
        URL(fileURLWithPath: try spoolStandardInput(prefix: prefix, rest: rest))
    }
}
