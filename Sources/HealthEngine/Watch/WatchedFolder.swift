import Foundation

/// One look at a watched folder (`healthport import --watch`): its entries, each either an
/// export to judge once it settles, or one meant for import that cannot be, with the reason.
///
/// The folder is listed with `readdir(3)` and every entry looked at with `fstatat(2)`, never
/// opened: a FIFO named `export.zip` would block an `open(2)` for ever, a link to `/dev/zero`
/// would feed a read without end, and `FileManager` drops names that are not UTF-8 without a
/// word. Whatever an entry is, the look returns.
enum WatchedFolder {
    /// What the watcher makes of one entry.
    enum Entry {
        /// A regular `.zip` or `.xml` file, or a folder (perhaps an unzipped export): judged once
        /// it has settled.
        case arrival(ExportArrival)
        /// Named as an export but not importable (a FIFO, a device, a broken link, a name that is
        /// not UTF-8): reported once per `identity`, then left alone.
        case unusable(name: String, identity: [Int64], reason: String)
    }

    /// The entries of `folder` worth a look: hidden files, the partial downloads browsers and
    /// sync clients write (`.part`, `.crdownload`, `.download`, `.icloud` placeholders, `.tmp`,
    /// `.partial`), `__MACOSX` (resource forks left by unzipping on a Mac), and files that are
    /// neither `.zip` nor `.xml` are left out without a word.
    ///
    /// - Throws: `RunError` `.inputNotFound` when the folder cannot be listed.
    static func entries(of folder: String) throws -> [Entry] {
        guard let directory = opendir(folder) else {
            throw RunError(.inputNotFound, "cannot list the watched folder: \(String(cString: strerror(errno)))", location: folder)
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [Entry] = []
        while let item = readdir(directory) {
            let raw = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if let entry = entry(named: raw, in: folder, descriptor: descriptor) { entries.append(entry) }
        }
        return entries
    }

    private static func entry(named raw: [UInt8], in folder: String, descriptor: Int32) -> Entry? {
        guard let first = raw.first, first != UInt8(ascii: "."), first != UInt8(ascii: "~") else { return nil }
        let decoded = String(decoding: raw, as: UTF8.self)
        let lowered = decoded.lowercased()
        for suffix in [".part", ".crdownload", ".download", ".icloud", ".tmp", ".partial"] where lowered.hasSuffix(suffix) {
            return nil
        }
        guard decoded != "__MACOSX" else { return nil }
        let isExportName = lowered.hasSuffix(".zip") || lowered.hasSuffix(".xml")

        var status = stat()
        // By the bytes themselves, relative to the listed folder: a name that is not UTF-8 is
        // looked at too.
        let found = fstatat(descriptor, raw.map { CChar(bitPattern: $0) } + [0], &status, 0) == 0
        let failure = found ? 0 : errno
        let kind = status.st_mode & S_IFMT
        let identity = [Int64(status.st_dev), Int64(status.st_ino), Int64(kind), Int64(failure)]

        // A name the rest of the system cannot carry: a Swift `String` (and every path healthport
        // builds) would hold U+FFFD instead of the byte, and name another file.
        guard Array(decoded.utf8) == raw else {
            guard isExportName || kind == S_IFDIR else { return nil }
            return .unusable(
                name: escaped(raw), identity: identity, reason: "its name is not valid UTF-8; skipped (rename it to import it)")
        }
        guard found else {
            // Gone since the listing (nothing to say), or a link that leads nowhere.
            guard isExportName, failure != ENOENT || isSymbolicLink(decoded, descriptor: descriptor) else { return nil }
            let why = failure == ENOENT ? "a symbolic link to nothing" : "cannot be looked at: \(String(cString: strerror(failure)))"
            return .unusable(name: decoded, identity: identity, reason: why + "; skipped")
        }
        let path = folder + "/" + decoded
        switch kind {
        case S_IFDIR:
            return .arrival(ExportArrival(name: decoded, path: path, form: .folder))
        case S_IFREG:
            if lowered.hasSuffix(".zip") { return .arrival(ExportArrival(name: decoded, path: path, form: .zip)) }
            if lowered.hasSuffix(".xml") { return .arrival(ExportArrival(name: decoded, path: path, form: .xml)) }
            return nil
        default:
            guard isExportName else { return nil }
            return .unusable(name: decoded, identity: identity, reason: "not a regular file (\(describe(kind))); skipped")
        }
    }

    private static func isSymbolicLink(_ name: String, descriptor: Int32) -> Bool {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// What kind of file `kind` (`st_mode & S_IFMT`) is, in words.
    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        default: return "not a file"
        }
    }

    /// A file name for a message: ASCII as it is, every other byte as `\xNN` (the name is not
    /// UTF-8, so no character can be shown for it).
    static func escaped(_ raw: [UInt8]) -> String {
        raw.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
    }
}
