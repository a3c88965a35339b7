import Foundation
import GRDB
import HealthModel

/// A new store's file while its first import writes it: hidden beside the store's path
/// (`.NAME.healthport-<pid>-XXXXXX`, `TemporaryFileName`), mode 0600, written with its journal
/// in memory and no `fsync`, and put at the path (`publish`) only once the import committed.
///
/// Why: in WAL mode every page of a first import is written twice, to the log and then into the
/// file by the checkpoint: copying the 4-year store's rows into a new file took `sqlite3` 0.95 s
/// without a journal against 1.23–1.44 s in WAL mode (docs/benchmarks.md, issue 51). No one else
/// can open a file that has no store's name, so no other connection needs the log, and a crash
/// needs no journal to recover from: a failed, cancelled or killed first import leaves no store
/// at all, only this hidden file, which `discard` removes, or a later run once this process is
/// gone (`removeOrphans`). Readers meanwhile find no store at the path, as before the import.
///
/// The journal is in memory rather than off (`journal_mode = OFF`), because with no journal at
/// all SQLite cannot roll a transaction back, and the store's import rolls back an export that
/// changes nothing: in memory, it holds only the pages the file had before the transaction (the
/// empty store's few), since SQLite journals no page past the file's original size.
///
/// The file is put in place with `link(2)`, which fails when a file is already at the path
/// (another process's first import that finished first, a file someone made): nothing at the
/// path is ever replaced, under its readers or its writer. Where the folder cannot hold a hard
/// link (some FAT, network or FUSE file systems, seen at `create`), there is no new file: the
/// store is made at its path, as before (`HealthStore.openForWriting`).
final class NewStoreFile {
    /// Where the file is while it is written.
    let temporaryPath: String
    /// The store's path, where `publish` puts the file.
    let destination: String
    /// The one connection to the file; `nil` once it was closed (published or discarded).
    private(set) var queue: DatabaseQueue?
    private var finished = false

    private init(temporaryPath: String, destination: String, queue: DatabaseQueue) {
        self.temporaryPath = temporaryPath
        self.destination = destination
        self.queue = queue
    }

    deinit {
        if !finished { discard() }
    }

    /// A new, empty SQLite file beside `destination`, opened with `pageSize` pages, its
    /// journal in memory and no `fsync`; `nil` when its folder cannot hold a hard link (the
    /// store is then made at its path).
    ///
    /// - Throws: `StoreError.database` when the file cannot be made (the folder is not
    ///   writable, the disk is full).
    static func create(for destination: String, pageSize: Int) throws -> NewStoreFile? {
        let (directory, name) = parts(of: destination)
        var template = Array("\(directory)/\(TemporaryFileName.prefix(for: name))XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw StoreError(.database, "\(destination): cannot create the store: \(String(cString: strerror(errno)))")
        }
        // mkstemp makes it 0600 already; said again so that no umask or platform can widen it.
        // SQLite gives the `-wal` and `-shm` files the main file's mode.
        fchmod(fd, 0o600)
        close(fd)
        let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // The hard link `publish` will make, tried now, before anything is written.
        let probe = temporaryPath + "-link"
        guard link(temporaryPath, probe) == 0 else {
            unlink(temporaryPath)
            return nil
        }
        unlink(probe)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
            try db.execute(sql: "PRAGMA journal_mode = MEMORY")
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        do {
            let queue = try HealthStore.wrap(destination) {
                try DatabaseQueue(path: temporaryPath, configuration: configuration)
            }
            return NewStoreFile(temporaryPath: temporaryPath, destination: destination, queue: queue)
        } catch {
            unlink(temporaryPath)
            throw error
        }
    }

    /// Puts the file at the store's path: switched to WAL (the store's mode, which every reader
    /// and writer of a store expects), closed, made durable, then linked there, unless a file
    /// appeared at the path meanwhile; then the folder is made durable too. Called once the
    /// import committed.
    ///
    /// - Returns: `false`, leaving the path untouched and this file as it is (for `discard`),
    ///   when a file is already at the path.
    /// - Throws: `StoreError.database`.
    func publish() throws -> Bool {
        guard let queue, !finished else {
            throw StoreError(.database, "\(destination): the new store was already put in place or discarded")
        }
        try HealthStore.wrap(destination) {
            try queue.writeWithoutTransaction { db in
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                    throw StoreError(.database, "\(destination): cannot switch the new store to WAL mode")
                }
            }
            // Closing the last connection checkpoints the log into the file and removes it.
            try queue.close()
        }
        self.queue = nil
        var status = stat()
        if stat(temporaryPath + "-wal", &status) == 0 && status.st_size > 0 {
            throw StoreError(.database, "\(destination): the new store's log was not written into it")
        }
        try Self.sync(temporaryPath, destination: destination)
        guard link(temporaryPath, destination) == 0 else {
            if errno == EEXIST { return false }
            throw StoreError(
                .database, "\(destination): cannot put the new store in place: \(String(cString: strerror(errno)))")
        }
        finished = true
        // The store is in place; the hidden name is only a second name of it now, which a
        // later run would remove as well.
        unlink(temporaryPath)
        for suffix in ["-wal", "-shm"] { unlink(temporaryPath + suffix) }
        try Self.sync(Self.parts(of: destination).directory, destination: destination)
        return true
    }

    /// Closes and removes the file (and whatever SQLite made beside it); the store's path is
    /// untouched.
    func discard() {
        guard !finished else { return }
        finished = true
        try? queue?.close()
        queue = nil
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporaryPath + suffix) }
    }

    /// Removes the new-store files a killed healthport left beside `destination`: those of its
    /// name whose process is gone, and this user's (a shared folder may hold others' files).
    static func removeOrphans(beside destination: String) {
        let (directory, name) = parts(of: destination)
        let prefix = ".\(name)\(TemporaryFileName.marker)"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in names where entry.hasPrefix(prefix) {
            guard let pid = TemporaryFileName.processID(at: entry.dropFirst(prefix.count)),
                TemporaryFileName.ownerIsGone(pid)
            else {
                continue
            }
            let path = directory + "/" + entry
            var status = stat()
            guard lstat(path, &status) == 0, status.st_uid == getuid(), (status.st_mode & S_IFMT) == S_IFREG else {
                continue
            }
            unlink(path)
        }
    }

    /// The folder and the file name of a path (`.` for a bare name).
    static func parts(of path: String) -> (directory: String, name: String) {
        let url = URL(fileURLWithPath: path)
        let directory = (path as NSString).deletingLastPathComponent
        return (directory.isEmpty ? "." : directory, url.lastPathComponent)
    }

    /// `fsync(2)` of a file or a folder.
    private static func sync(_ path: String, destination: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StoreError(
                .database, "\(destination): cannot open \(path) to sync it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        // EINVAL: a file system that cannot sync (nothing to wait for).
        if fsync(fd) != 0 && errno != EINVAL {
            throw StoreError(.database, "\(destination): cannot sync \(path): \(String(cString: strerror(errno)))")
        }
    }
}
