import Foundation
import GRDB

extension HealthStore {
    /// Where a store's file is, and what reaches it.
    ///
    /// A store opened for reading, or an existing one opened for writing, is `.file` for its
    /// whole life. A new store opened for writing starts as `.newFile` and becomes `.unopened`
    /// once its first import put the file at its path (or failed), then `.file` again at its
    /// next use, opened as `openForWriting` opens an existing store; the pool is not opened
    /// before that use, so an import that ends the process opens no pool it never uses.
    enum Connections {
        /// The store's file at its path, through a pool (WAL): readers see each commit.
        case file(DatabasePool)
        /// A new store's hidden file, through its one connection, until its first import
        /// commits (`NewStoreFile`).
        case newFile(NewStoreFile, DatabaseQueue)
        /// None: opened at the next use.
        case unopened

        /// What reads and writes the store's file, when it is open.
        var writer: (any DatabaseWriter)? {
            switch self {
            case .file(let pool): return pool
            case .newFile(_, let queue): return queue
            case .unopened: return nil
            }
        }
    }

    /// What reads and writes the store's file now, for one read or write.
    ///
    /// A new store's hidden file while its first import has not committed, unless another
    /// process has made a store at the path meanwhile: that one is the store at the path, and
    /// is opened instead (the hidden file, which holds nothing but the schema, is removed).
    ///
    /// - Throws: `StoreError`, opening the file at the path (`openForWriting`).
    var database: any DatabaseWriter {
        get throws {
            lock.lock()
            defer { lock.unlock() }
            switch connections {
            case .file(let pool):
                return pool
            case .newFile(let file, let queue):
                guard Self.fileExists(at: path) else { return queue }
                file.discard()
                connections = .unopened
                return try reopen()
            case .unopened:
                return try reopen()
            }
        }
    }

    /// Turns positions into the tokens consumers see, and back (`StoreAnchor`): the anchor key
    /// of the file `database` reaches (read it after `database`, which may open another file).
    var anchorCipher: StoreAnchorCipher {
        lock.lock()
        defer { lock.unlock() }
        return cipher
    }

    /// The new store's hidden file, while its first import has not committed.
    var newFile: NewStoreFile? {
        lock.lock()
        defer { lock.unlock() }
        if case .newFile(let file, _) = connections { return file }
        return nil
    }

    /// Puts a new store's file at its path, once its first import committed, or before any
    /// other write: from then on, the store is that file.
    ///
    /// - Returns: `false` when another file is at the path already; the hidden file is removed
    ///   then, and the next use opens what is there.
    /// - Throws: `StoreError.database`; the hidden file is removed, and no store is left.
    @discardableResult
    func putNewFileInPlace() throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard case .newFile(let file, _) = connections else { return true }
        connections = .unopened
        do {
            if try file.publish() { return true }
        } catch {
            file.discard()
            throw error
        }
        file.discard()
        return false
    }

    /// Removes a new store's hidden file after its first import failed; the next use starts a
    /// new one (or opens what another process made at the path meanwhile).
    func discardNewFile() {
        lock.lock()
        defer { lock.unlock() }
        guard case .newFile(let file, _) = connections else { return }
        file.discard()
        connections = .unopened
    }

    /// Opens the store at the path as `openForWriting` does, with `lock` held.
    private func reopen() throws -> any DatabaseWriter {
        let (opened, upgraded) = try Self.openConnections(forWritingAt: path)
        guard let writer = opened.writer else { preconditionFailure("a store is opened with its connections open") }
        cipher = try Self.wrap(path) { try writer.read { db in try Self.anchorCipher(db, path: path) } }
        connections = opened
        if let upgraded { upgrade = upgraded }
        return writer
    }

    /// Whether anything is at `path` (a symbolic link, even to nothing, included).
    static func fileExists(at path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 || errno != ENOENT
    }
}
