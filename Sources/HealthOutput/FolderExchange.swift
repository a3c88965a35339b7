import Foundation
import HealthJSON

/// Replaces a folder of tables with a staged one in one step: `renameat2(2)` with
/// `RENAME_EXCHANGE` (Linux 3.15 and later) swaps the two names atomically, so a reader sees the
/// previous output or the new one, never a mix, and a `kill -9` at any moment leaves one of them
/// whole (the other, under the staging name, is removed by the next run: `StaleTemporaries`).
///
/// Files of the destination that the new output does not replace (a person's notes, a table of
/// a type no longer selected) are carried over as hard links first. A destination holding
/// anything else (a subfolder, a link, another run's staging), a destination that is itself a
/// symbolic link, one on another file system than its parent, or a kernel or file system
/// without the exchange: the caller publishes file by file instead, as before.
enum FolderExchange {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, looked up at run time: Swift's Glibc module does not import it.
    private static let renameat2: RenameAt2? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
        return nil
        #endif
    }()

    /// `RENAME_EXCHANGE` from <linux/fs.h>.
    private static let renameExchange: UInt32 = 1 << 1

    static var isAvailable: Bool { renameat2 != nil }

    /// Carries the destination's other files into `staged`, then exchanges the two folders.
    ///
    /// - Returns: `false` when the exchange cannot be made (the caller publishes file by file;
    ///   hard links already made in `staged` go when it is removed).
    /// - Throws: `OutputError.cannotCreate` when the destination cannot be listed.
    static func exchange(staged: String, names: Set<String>, with destination: String) throws -> Bool {
        guard let renameat2 else { return false }
        // A symbolic link to a folder is followed, as for files: exchanging would replace the
        // link itself. Published file by file into its target instead.
        var own = stat()
        guard lstat(destination, &own) == 0, own.st_mode & S_IFMT == S_IFDIR else { return false }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: destination)
        } catch {
            throw OutputError(.cannotCreate, "cannot list the folder", path: destination)
        }
        let others = entries.filter { !names.contains($0) }
        // Only regular files can be carried over: anything else, and nothing is changed.
        for entry in others {
            var status = stat()
            guard lstat(destination + "/" + entry, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        }
        var carried: [String] = []
        func undo() -> Bool {
            for entry in carried { unlink(staged + "/" + entry) }
            return false
        }
        for entry in others {
            guard link(destination + "/" + entry, staged + "/" + entry) == 0 else { return undo() }
            carried.append(entry)
        }
        var status = stat()
        if stat(destination, &status) == 0 { chmod(staged, status.st_mode & 0o7777) }
        guard renameat2(AT_FDCWD, staged, AT_FDCWD, destination, renameExchange) == 0 else { return undo() }
        return true
    }
}
