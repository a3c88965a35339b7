import Foundation
import GRDB
import HealthJSON
import HealthModel

/// A person's Health history in one SQLite file (WAL): every object of every imported export,
/// tombstones for the objects that disappeared, and a monotonic change sequence whose current
/// position is the store's anchor (HealthKit: the store an `HKAnchoredObjectQuery` reads).
///
/// Readers get a snapshot: a query or a batch of changes sees the store as of one committed
/// import, even while another import runs.
public final class HealthStore {
    public let path: String
    /// Where the store's file is: at `path`, or, until a new store's first import commits, a
    /// hidden file beside it (`Connections`). Read through `database`, under `lock`.
    var connections: Connections
    /// Turns positions into the tokens consumers see, and back (`StoreAnchor`): the key of the
    /// file `connections` reach. Read through `anchorCipher`, under `lock`.
    var cipher: StoreAnchorCipher
    let lock = NSLock()
    /// What opening this store changed in its file (a newer layout, summary tables remade by
    /// newer rules), for the command to say once; `nil` when nothing changed.
    public internal(set) var upgrade: StoreUpgrade? = nil
    static let pageSize = 16384
    /// The most objects an import holds the uuids of in memory (`StoreObjectIndex`); the tests
    /// lower it to check that both ways of finding the store's objects agree.
    var objectIndexInMemoryLimit = StoreObjectIndex.inMemoryLimit

    /// - Parameter connections: `.file` or `.newFile`, whose file holds the anchor key.
    init(path: String, connections: Connections) throws {
        guard let writer = connections.writer else { preconditionFailure("a store is made with its connections open") }
        self.path = path
        self.connections = connections
        cipher = try Self.wrap(path) { try writer.read { db in try Self.anchorCipher(db, path: path) } }
    }

    /// The store's anchor key.
    ///
    /// - Throws: `StoreError.incompatible` when it is missing or not 16 bytes (a damaged store).
    static func anchorCipher(_ db: Database, path: String) throws -> StoreAnchorCipher {
        guard let key = try Data.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'anchor_key'"), key.count == 16 else {
            throw StoreError(.incompatible, "\(path): the store is damaged (no anchor key)")
        }
        return StoreAnchorCipher(keyBytes: Array(key))
    }

    /// Opens an existing store for reading; never creates or migrates one.
    ///
    /// - Throws: `StoreError` `.notFound`, `.incompatible` (not a store, or a schema this
    ///   healthport does not know).
    public static func openForReading(at path: String) throws -> HealthStore {
        try openForReading(at: path, mayUpgrade: true)
    }

    /// `mayUpgrade`: whether the store may still be upgraded, or its summary tables made anew,
    /// before it is opened; `false` once that was done, so that a store the upgrade left as it
    /// was (a damaged one, whose index hides the row the upgrade wrote: the store fuzzer's
    /// finding) is not upgraded again and again until the stack overflows.
    private static func openForReading(at path: String, mayUpgrade: Bool) throws -> HealthStore {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notFound, "\(path): no store here (create one with \(request: .importExport(store: path)))")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = upgradeWait
        let pool = try wrap(path) { try DatabasePool(path: readablePath(path), configuration: configuration) }
        let (upgrade, staleRules) = try wrap(path) {
            try pool.read { db in
                try checkIdentity(db, path: path, allowEmpty: false)
                let missing = Set(StoreSchema.knownMigrations).subtracting(try StoreSchema.migrator.appliedIdentifiers(db))
                let rules = try StoreSummaries.rules(db)
                return (!missing.isSubset(of: StoreSchema.migrationsReadersDoNotNeed), !missing.isEmpty || rules != StoreSummaries.rulesVersion)
            }
        }
        // Summary tables made by older rules, or missing ones, are made anew when the store
        // can be written (`StoreSummaries.rebuildIfRulesChanged`); read-only, the objects
        // answer every command, and the tables wait for the next import.
        if !upgrade && staleRules && mayUpgrade && canWrite(path) {
            try wrap(path) { try pool.close() }
            let upgraded = try migrate(at: path)
            let store = try openForReading(at: path, mayUpgrade: false)
            store.upgrade = upgraded
            return store
        }
        guard upgrade else { return try HealthStore(path: path, connections: .file(pool)) }
        guard mayUpgrade else {
            throw StoreError(.incompatible, "\(path): the store is damaged (its upgrade was applied and the store still needs it)")
        }
        // A store of an older layout is upgraded on first use, whatever the command: each
        // migration runs in a transaction of its own (killed halfway, the store is left at the
        // last migration that committed, and the next use goes on from there), then it is
        // opened read-only again. A store this process may not write stays refused.
        try wrap(path) { try pool.close() }
        guard canWrite(path) else {
            throw StoreError(
                .incompatible, "\(path): the store was made by an older healthport and is read-only here; run healthport import once to upgrade it")
        }
        let upgraded = try migrate(at: path)
        let store = try openForReading(at: path, mayUpgrade: false)
        store.upgrade = upgraded
        return store
    }

    /// Whether this process may change the store: write the file, and make its journal beside
    /// it.
    static func canWrite(_ path: String) -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
    }

    /// The name to open a store by for reading: its path, or, in a folder this process may not
    /// write and with no write-ahead log beside it, an SQLite URI that opens it immutable.
    ///
    /// Why: a store is in WAL mode, and SQLite reads such a file through a `-shm` index it
    /// creates beside it; in a folder the reader may not write (another user's, a read-only
    /// mount) that failed, and the store could not be read at all ("attempt to write a
    /// readonly database"). With no `-wal` file, every committed change is in the main file,
    /// and `immutable=1` reads it without the index or any lock. A store with a log beside it
    /// (another process is writing it) is opened as usual, through the log.
    static func readablePath(_ path: String, folderIsWritable: Bool? = nil) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard !(folderIsWritable ?? (access(folder.isEmpty ? "." : folder, W_OK) == 0)) else { return path }
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
        guard log == nil || log == 0 else { return path }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let escaped = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? absolute
        return "file:\(escaped)?immutable=1"
    }

    /// How long opening a store waits for another process that holds it: one upgrading it
    /// (each row rewritten, then `VACUUM`, which holds the whole file) takes minutes on years of
    /// data, not the 30 s an import's write waits for another's. Every command opening an older
    /// store at once waits for the one that upgrades it, then finds nothing left to do. A store
    /// in WAL mode (every store after its upgrade) never makes a reader wait at all.
    static let upgradeWait: Database.BusyMode = .timeout(600)

    /// Applies the migrations this healthport knows to an existing store.
    ///
    /// Through a queue, not a pool: a pool switches the file to WAL as it opens it, which an
    /// older healthport's store should not undergo before its upgrade is known to succeed (a
    /// migration that fails on rows that cannot be decoded rolls back and leaves the rows
    /// as they were, in the file's own journal mode).
    private static func migrate(at path: String) throws -> StoreUpgrade? {
        var configuration = Configuration()
        configuration.busyMode = upgradeWait
        let queue = try wrap(path) { try DatabaseQueue(path: path, configuration: configuration) }
        defer { try? queue.close() }
        return try wrap(path) {
            try queue.writeWithoutTransaction { db in try checkIdentity(db, path: path, allowEmpty: false) }
            return try migrateAndCompact(queue, path: path)
        }
    }

    /// Opens a store for importing, creating it (mode 0600, its folder 0700) or upgrading its
    /// schema as needed.
    ///
    /// With no file at `path`, the store is new, and it has no file there until its first import
    /// commits: it is written into a hidden file beside the path, with no log, and put at the
    /// path only then (`NewStoreFile`; the folder is still made now). A first import that fails,
    /// is cancelled or is killed leaves no store; a reader meanwhile finds none, as before the
    /// import. Any other write (`recordWatchedExport`) puts the new store's file in place first,
    /// and a store another process made at the path meanwhile is the one this store reads and
    /// writes from then on; only a first import that finds one there at its commit fails
    /// (`importObjects`). An empty file at the path (made by hand, or by an older healthport's
    /// first import) is made the store in place, as any existing file is opened.
    ///
    /// - Throws: `StoreError` `.incompatible` (a file that is not a store, or a newer
    ///   healthport's), `.database` (the folder or the file cannot be made, SQLite failed).
    public static func openForWriting(at path: String) throws -> HealthStore {
        let (connections, upgraded) = try openConnections(forWritingAt: path)
        let store = try HealthStore(path: path, connections: connections)
        store.upgrade = upgraded
        return store
    }

    /// The connections `openForWriting` opens: a new store's hidden file when there is no file at
    /// `path` (and its folder can hold a hard link), else the file at `path`, upgraded first if
    /// an older healthport made it. Also what a store opened for writing opens again after its
    /// first import put its file in place (`database`).
    static func openConnections(forWritingAt path: String) throws -> (Connections, StoreUpgrade?) {
        var upgraded: StoreUpgrade? = nil
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(.database, "\(path): cannot create the folder \(directory): \(error.localizedDescription)")
            }
        }
        NewStoreFile.removeOrphans(beside: path)
        // `lstat`: a symbolic link, even one to nothing, is a file at the path (opened below, as
        // before, which creates its target).
        var status = stat()
        if lstat(path, &status) != 0 && errno == ENOENT, let file = try NewStoreFile.create(for: path, pageSize: pageSize),
            let queue = file.queue
        {
            do {
                try wrap(path) {
                    try queue.writeWithoutTransaction { db in
                        try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
                    }
                    try migrateAndCompact(queue, path: path)
                }
            } catch {
                file.discard()
                throw error
            }
            return (.newFile(file, queue), nil)
        }
        // SQLite creates files 0644 less the umask, and gives the -wal and -shm files the main
        // file's mode: creating the file first makes all three private.
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        guard fd >= 0 else {
            throw StoreError(.database, "\(path): cannot create the store: \(String(cString: strerror(errno)))")
        }
        close(fd)
        // Checked read-only first: a file that is not ours, or a newer store, is left untouched.
        let existing = ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0
        if existing {
            var readOnly = Configuration()
            readOnly.readonly = true
            readOnly.busyMode = upgradeWait
            try wrap(path) {
                let check = try DatabaseQueue(path: path, configuration: readOnly)
                let pending = try check.read { db in
                    try checkIdentity(db, path: path, allowEmpty: true)
                    return try StoreSchema.migrator.hasCompletedMigrations(db) == false
                        && (try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0) > 0
                }
                try check.close()
                // An older store is upgraded before the pool opens it (`migrate(at:)`).
                if pending { upgraded = try migrate(at: path) }
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        if !existing {
            // Set before the first write, which fixes it: larger pages mean fewer page splits
            // and WAL frames per imported row (measured with Benchmarks/store.sh).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)") }
        }
        let pool = try wrap(path) { try DatabasePool(path: path, configuration: configuration) }
        try wrap(path) {
            try pool.writeWithoutTransaction { db in
                try checkIdentity(db, path: path, allowEmpty: true)
                try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
            }
            if let later = try migrateAndCompact(pool, path: path) { upgraded = later }
        }
        return (.file(pool), upgraded)
    }

    /// Applies the pending migrations; after the one that rewrote every row into the compact
    /// layout (`v5`), gives the pages the older rows took back to the file system (`VACUUM`,
    /// itself atomic), or the file would keep the older layout's size.
    @discardableResult
    private static func migrateAndCompact(_ writer: some DatabaseWriter, path: String) throws -> StoreUpgrade? {
        let (rewrites, before) = try writer.read { db in
            let applied = try StoreSchema.migrator.appliedIdentifiers(db)
            return (applied.contains("v1") && !applied.contains("v5"), try StoreFormat.read(db))
        }
        try StoreSchema.migrator.migrate(writer)
        if rewrites { try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") } }
        // The summary tables by this healthport's rules, after every migration (never inside
        // one: a migration calls no code that changes).
        let remade = try writer.write { db in try StoreSummaries.rebuildIfRulesChanged(db, path: path) }
        let after = try writer.read { db in try StoreFormat.read(db) }
        // A new store (layout 0) is not an upgrade.
        guard before.layout > 0, after.layout != before.layout || remade else { return nil }
        return StoreUpgrade(from: before, to: after, remadeSummaries: remade)
    }

    /// Refuses a SQLite file that is not a healthport store, or a store from a newer healthport.
    private static func checkIdentity(_ db: Database, path: String, allowEmpty: Bool) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        if id != StoreSchema.applicationID {
            if id == 0 && tables == 0 {
                if allowEmpty { return }
                // An empty file: a store being made at its path (in a folder that cannot hold a
                // hard link, `NewStoreFile`), or one an older healthport's first import left
                // unfinished (the file existed from its start). No store yet, rather than a file
                // that is not one. (A new store's first import elsewhere leaves no file at all
                // until it commits.)
                throw StoreError(.notFound, "\(path): no store here yet (the file is empty: its first import has not finished)")
            }
            throw StoreError(.incompatible, "\(path): not a healthport store")
        }
        let applied = try StoreSchema.migrator.appliedIdentifiers(db)
        let known = Set(StoreSchema.knownMigrations)
        if let unknown = applied.first(where: { !known.contains($0) }) {
            throw StoreError(
                .incompatible,
                "\(path): the store was made by a newer healthport (schema '\(unknown)'); upgrade healthport to read it")
        }
    }

    static func wrap<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_NOTADB {
                throw StoreError(.incompatible, "\(path): not a healthport store (not an SQLite database)")
            }
            throw StoreError(.database, "\(path): \(error.message ?? "\(error.resultCode)")")
        } catch is RowDecodingError {
            // A column that holds another kind of value than healthport wrote (text for a
            // number): the store was damaged or written by another program. GRDB's description
            // would quote the value, which may be personal data.
            throw StoreError(.incompatible, "\(path): the store is damaged (a column holds a value of another kind)")
        }
    }

    /// The store's anchor: its latest change, every type included. The owner's (what `import`
    /// prints, and what an unfiltered query reaches); never a consumer's, whose anchor stops at
    /// the last change it sees (`changes(since:query:limit:…)`).
    public func anchor() throws -> StoreAnchor {
        try Self.wrap(path) { try database.read { db in anchorCipher.anchor(position: try Self.anchor(db, path: path)) } }
    }

    /// The anchor a token stands for: a token this store made (`StoreAnchor.token`), or
    /// `StoreAnchor.originText` for the origin.
    ///
    /// - Throws: `StoreError.invalidAnchor` for anything else (another store's token, a
    ///   position in the clear, a damaged token), naming nothing about this store.
    ///
    /// With `allowsPosition` (the owner's reads, no policy), a position in the clear is taken
    /// too: the anchors healthport handed out before 0.3.0, before the store had tokens
    /// (healthport-store(5) says they stay valid). A consumer bound by a policy is told to
    /// start over: a position names a place in the whole store, hidden types' changes included.
    public func anchor(token: String, allowsPosition: Bool = false) throws -> StoreAnchor {
        if token == StoreAnchor.originText { return anchorCipher.anchor(position: 0) }
        if !token.isEmpty, token.utf8.count <= 18, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let position = Int(token) {
            guard allowsPosition else {
                throw StoreError(
                    .invalidAnchor,
                    "\(path): '\(token)' is a numeric anchor of healthport before 0.3.0, which only the store's owner may resume from; start over with 0")
            }
            guard position <= (try self.position()) else {
                throw StoreError(.invalidAnchor, "\(path): the anchor is ahead of this store (was the store restored from an older copy?)")
            }
            return anchorCipher.anchor(position: position)
        }
        guard let position = anchorCipher.position(of: token) else {
            throw StoreError(
                .invalidAnchor,
                "\(path): '\(token.prefix(40))' is not an anchor of this store (anchors are the tokens its changes print, or 0 for the beginning)")
        }
        return anchorCipher.anchor(position: position)
    }

    /// The position of the store's latest change (0 when empty): for the engine only, which
    /// never shows it.
    package func position() throws -> Int {
        try Self.wrap(path) { try database.read { db in try Self.anchor(db, path: path) } }
    }

    /// - Throws: `StoreError.incompatible` when the stored position is not a whole number from 0
    ///   up (a damaged store, or rows another program wrote): a token is never made of it.
    static func anchor(_ db: Database, path: String) throws -> Int {
        guard let value = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'anchor'"), !value.isNull else {
            return 0
        }
        guard case .int64(let position) = value.storage, position >= 0 else {
            throw StoreError(.incompatible, "\(path): the store is damaged (its anchor is not a position from 0 up)")
        }
        return Int(position)
    }

    /// The header of the latest import (locale, export date, characteristics), as the reader read it.
    ///
    /// - Throws: `StoreError.incompatible` when the stored header cannot be decoded (a damaged
    ///   store), naming the position in it, never its text.
    ///
    /// A store may hold both of a person's phones (`ExportPlatform`), and each phone's export says
    /// some things the other's does not. So its Health Connect priority list is the store's
    /// (`StoreSummaries.healthConnectPriority`: the latest import's that had one), and so are
    /// the characteristics (Apple's export has them, Health Connect's none): an Android export
    /// imported after the iPhone's leaves the person's birth date and sex where they were.
    static func latestHeader(_ db: Database, path: String) throws -> ExportHeader {
        guard let text = try String.fetchOne(db, sql: "SELECT header FROM imports ORDER BY id DESC LIMIT 1") else {
            return ExportHeader()
        }
        var header = try decodeHeader(text, path: path)
        if header.healthConnectPriority == nil { header.healthConnectPriority = try StoreSummaries.healthConnectPriority(db, path: path) }
        if header.characteristics == nil {
            header.characteristics = try latestHeader(having: "characteristics", db, path: path) { $0.characteristics != nil }?.characteristics
        }
        return header
    }

    /// The header of the latest import whose header line has `member` and satisfies `holds`.
    /// The text filter only skips the headers that cannot have it.
    static func latestHeader(
        having member: String, _ db: Database, path: String, holds: (ExportHeader) -> Bool
    ) throws -> ExportHeader? {
        let headers = try String.fetchCursor(
            db, sql: "SELECT header FROM imports WHERE header LIKE ? ORDER BY id DESC", arguments: ["%\"\(member)\"%"])
        while let text = try headers.next() {
            let header = try decodeHeader(text, path: path)
            if holds(header) { return header }
        }
        return nil
    }

    /// The header of the import `id`, as the reader read it.
    static func importHeader(_ db: Database, path: String, id: Int64) throws -> ExportHeader {
        guard let text = try String.fetchOne(db, sql: "SELECT header FROM imports WHERE id = ?", arguments: [id]) else {
            return ExportHeader()
        }
        return try decodeHeader(text, path: path)
    }

    static func decodeHeader(_ text: String, path: String) throws -> ExportHeader {
        do {
            return try ObjectDecoder.decodeHeader(try JSONParser.parse(Array(text.utf8)))
        } catch let error as JSONSyntaxError {
            throw StoreError(.incompatible, "\(path): the store is damaged (the latest import's header: \(error))")
        } catch let error as ObjectDecoder.SchemaError {
            throw StoreError(.incompatible, "\(path): the store is damaged (the latest import's header: \(error))")
        } catch {
            throw StoreError(.incompatible, "\(path): the store is damaged (the latest import's header cannot be decoded)")
        }
    }

    /// Counts for `info`-like summaries and tests.
    public struct Statistics: Sendable, Equatable {
        public var objects: Int
        public var deletedObjects: Int
        public var imports: Int
        public var anchor: Int
    }

    package func statistics() throws -> Statistics {
        try Self.wrap(path) {
            try database.read { db in
                Statistics(
                    objects: try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? 0,
                    deletedObjects: try Int.fetchOne(db, sql: "SELECT count(*) FROM deleted_objects") ?? 0,
                    imports: try Int.fetchOne(db, sql: "SELECT count(*) FROM imports") ?? 0,
                    anchor: try Self.anchor(db, path: path))
            }
        }
    }
}
