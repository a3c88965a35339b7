import Foundation
import GRDB
import HealthJSON
import HealthModel
import HealthQuery

extension HealthStore {
    /// The page cache an import uses, in KiB. It bounds the import's memory: a transaction's
    /// dirty pages stay in the cache until it is full, and the 128 MB it was let the 4-year
    /// import reach 208 MB of RSS. It also sizes SQLite's sorter, which makes the indexes of a
    /// first import: with 16 MB, making them took 37 MB and 1.05 s, with 4 MB 12 MB and 0.56 s
    /// (`sqlite3`, the 4-year store of `Benchmarks/store.sh`).
    static let importCacheKiB = 4 * 1024

    /// What an import did.
    public struct ImportSummary: Sendable, Equatable {
        /// Objects the export holds.
        public var objects: Int
        /// Objects new to the store.
        public var added: Int
        /// Objects of the store the export no longer holds, now tombstones.
        public var deleted: Int
        /// The store's anchor after the import (unchanged when nothing changed): the owner's,
        /// every type included (`HealthStore.anchor()`).
        public var anchor: StoreAnchor
        /// The zone the store's summaries were remade in, when this import changed it: the first
        /// imports named no zone (days were cut at their export's offset) and this one's
        /// samples do (`StoreSummaries.reZone`).
        public var summaryTimeZone: String? = nil
        /// Whether the import changed nothing (the same export again): nothing was written.
        public var unchanged: Bool { added == 0 && deleted == 0 }
    }

    /// Imports one export, all or nothing, in a single SQLite transaction: killed at any moment,
    /// the store stays at its previous anchor.
    ///
    /// Objects new to the store get the next positions of the change sequence in document
    /// order; objects of the store the export no longer holds become tombstones (HealthKit:
    /// `HKDeletedObject`), positioned after the additions, by uuid — the order `diff` reports.
    /// Importing the same export again changes nothing. The summary tables (`daily_summary`,
    /// `sleep_nights`) change in the same transaction, for the days the import touches
    /// (`StoreSummaries`), so a reader never sees objects and summaries of different imports.
    ///
    /// - Parameters:
    ///   - force: import even an export older than the last import, or one that shares less
    ///     than 5 % of the store's objects (another person's, most likely): both would turn
    ///     most of the store into tombstones.
    ///   - source: the export's objects (an export being read, healthport's NDJSON); it reports
    ///     its own warnings and progress, bound when it was made.
    ///   - objectsRead: called from the reading thread with how many objects were read so far.
    /// A new store's first import (`openForWriting` found no file at the path) is written into
    /// its hidden file, and puts it at the path once it committed (`NewStoreFile`); failed or
    /// cancelled, it leaves no store, and the next use of this object starts a new one.
    ///
    /// - Throws: `StoreError.refusedImport`, what the source throws (`ExportError`),
    ///   `StoreError.database`; `.database` too when a new store's first import finds that
    ///   another process made a store at the path while it ran: nothing was imported, and the
    ///   next use of this object (another import) reads and writes the store that is there.
    public func importObjects(
        from source: any ObjectSource, inputName: String, force: Bool = false, input: ImportedFile? = nil,
        objectsRead: ((Int) -> Void)? = nil
    ) throws -> ImportSummary {
        try Self.wrap(path) {
            let writer = try database
            guard newFile != nil else {
                return try importObjects(into: writer, from: source, inputName: inputName, force: force, input: input, objectsRead: objectsRead)
            }
            let summary: ImportSummary
            do {
                summary = try importObjects(into: writer, from: source, inputName: inputName, force: force, input: input, objectsRead: objectsRead)
            } catch {
                discardNewFile()
                throw error
            }
            guard try putNewFileInPlace() else {
                throw StoreError(
                    .database,
                    "\(path): another process made a store here while this first import ran; nothing was imported (import again, into that store)")
            }
            return summary
        }
    }

    /// `importObjects`, through `writer`.
    private func importObjects(
        into writer: any DatabaseWriter, from source: any ObjectSource, inputName: String, force: Bool, input: ImportedFile?,
        objectsRead: ((Int) -> Void)?
    ) throws -> ImportSummary {
        if let input, let unchanged = try sameFileAsLastImport(input, writer: writer) { return unchanged }
        // The file's digest, for the next import to know it again, made on a thread of its
        // own while the export is read.
        let digest = input.map { DigestJob($0) }
        let anchorCipher = anchorCipher
        var result: ImportSummary? = nil
        try writer.writeWithoutTransaction { db in
            // An import writes far more pages than SQLite's default 2 MB cache holds; a larger
            // cache keeps the indexes' hot pages from being spilled to the WAL and re-read
            // (`importCacheKiB`).
            try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB)")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            try db.inTransaction(.immediate) {
                let importer = try Importer(
                    db: db, storePath: path, inputName: inputName, force: force, anchorCipher: anchorCipher, digest: digest,
                    inMemoryLimit: objectIndexInMemoryLimit)
                try importer.run(source, objectsRead: objectsRead)
                let summary = try importer.finish()
                result = summary
                // The same export again: leave the store exactly as it was. (Another
                // priority list is a change: it remade the summary tables.)
                return summary.unchanged && !importer.reading.exportDateChanged && !importer.priorityChanged ? .rollback : .commit
            }
        }
        return result!
    }
}

extension HealthStore {
    /// The file an export is read from, as an import records it: an import of the same bytes
    /// as the store's latest import is known without reading them (`importObjects`).
    public struct ImportedFile: Sendable {
        /// Its size; only a file of the latest import's size is hashed before the read.
        public var byteCount: Int64
        /// Its SHA-256, hex; `nil`, or a throw, when it cannot be read.
        public var digest: @Sendable () throws -> String?

        public init(byteCount: Int64, digest: @escaping @Sendable () throws -> String?) {
            self.byteCount = byteCount
            self.digest = digest
        }
    }

    /// The answer of an import of the very bytes the store's latest import read: that import
    /// left the store holding exactly its objects and no other, so reading them again would add
    /// nothing and delete nothing (and its header, export date included, is the same). Hashing
    /// the 4-year export takes about a third of reading it (SHA-256 in hardware, 1.2 GB/s):
    /// `Benchmarks/store.sh`, "import again". Only a file of the latest import's size is hashed.
    ///
    /// - Returns: `nil` when the file is another (or the store knows no digest of its latest
    ///   import): the import reads it.
    func sameFileAsLastImport(_ input: ImportedFile, writer: any DatabaseWriter) throws -> ImportSummary? {
        let latest = try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT input_bytes, input_digest, objects FROM imports ORDER BY id DESC LIMIT 1")
        }
        guard let latest, let bytes = try latest.decode(Int64?.self, atIndex: 0), bytes == input.byteCount,
            let known = try latest.decode(String?.self, atIndex: 1),
            let digest = try? input.digest(), digest == known
        else { return nil }
        let position = try writer.read { db in try Self.anchor(db, path: path) }
        return ImportSummary(objects: try latest.decode(atIndex: 2), added: 0, deleted: 0, anchor: anchorCipher.anchor(position: position))
    }
}

/// An import's file digest, made on a thread of its own.
final class DigestJob: @unchecked Sendable {
    let byteCount: Int64
    private var digest: String?
    private let done = DispatchSemaphore(value: 0)

    init(_ input: HealthStore.ImportedFile) {
        byteCount = input.byteCount
        let thread = Thread { [self] in
            digest = (try? input.digest()) ?? nil
            done.signal()
        }
        thread.start()
    }

    /// The digest, once made (waits for it); `nil` when the file could not be read.
    func result() -> String? {
        done.wait()
        done.signal()
        return digest
    }
}

/// One import: the export is read, mapped and encoded on one thread (`ReadingSide`) while this
/// thread, the database's, inserts the rows it hands over in batches. The two overlap on two
/// cores; an import then takes about as long as the slower of the two, not their sum
/// (`Benchmarks/store.sh`).
final class Importer {
    private let db: Database
    private let storePath: String
    private let force: Bool
    let reading: ReadingSide
    private let importID: Int64
    private let previousAnchor: Int
    private let anchorCipher: StoreAnchorCipher
    private var insertedRows = 0
    private let summaryMode: SummaryMode
    /// The first summary's rows, computed by the reading thread (`StoreSummaries.compute`).
    private var builtSummary: StoreSummaries.Built?
    /// Whether the store held nothing, not even tombstones: its indexes are made after the rows.
    private let emptyStore: Bool
    /// The store's Health Connect priority list before this import
    /// (`StoreSummaries.healthConnectPriority`).
    private let previousPriority: HealthConnectPriority?
    /// Whether the export's priority list is another than the store's: the summary tables are
    /// remade by it (`finish`).
    private(set) var priorityChanged = false
    /// The platforms of the store's imports before this one (`nil`: a name this healthport does
    /// not know, whose objects no import replaces).
    private let storePlatforms: Set<ExportPlatform?>

    /// How this import keeps the summary tables (`StoreSummaries`).
    enum SummaryMode {
        /// The store holds nothing: a collector is fed the objects as they are read.
        case build(SummaryCollector)
        /// The store's days are cut in this zone: the days the import touches are recomputed,
        /// the collector fed the new objects as they are read, the store's older ones after.
        case update(TimeZone, SummaryCollector)
        /// No zone yet, though the store holds objects (none of them samples the summary
        /// counts): everything from the store's rows, once the import's are in.
        case rebuild

        var collector: SummaryCollector? {
            switch self {
            case .build(let collector), .update(_, let collector): return collector
            case .rebuild: return nil
            }
        }
    }

    /// The digest of the file being read, recorded with the import.
    private let digest: DigestJob?

    init(
        db: Database, storePath: String, inputName: String, force: Bool, anchorCipher: StoreAnchorCipher, digest: DigestJob?,
        inMemoryLimit: Int
    ) throws {
        self.digest = digest
        self.db = db
        self.anchorCipher = anchorCipher
        self.storePath = storePath
        self.force = force
        previousAnchor = try HealthStore.anchor(db, path: storePath)
        previousPriority = try StoreSummaries.healthConnectPriority(db, path: storePath)
        // With both phones' imports in the store, an import replaces only its own platform's
        // objects (`finish`).
        storePlatforms = Set(try String.fetchAll(db, sql: "SELECT DISTINCT platform FROM imports").map { ExportPlatform(rawValue: $0) })
        let base = try StoreObjectIndex(db: db, path: storePath, storeAnchor: previousAnchor, inMemoryLimit: inMemoryLimit)
        let tombstones = try Int.fetchOne(db, sql: "SELECT count(*) FROM deleted_objects") ?? 0
        emptyStore = base.count == 0 && tombstones == 0
        // The latest export date of each platform: an export is older than its own platform's
        // latest, whatever the other phone's.
        var lastExportDates: [ExportPlatform: Int64] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT platform, export_date FROM imports AS i WHERE id = (SELECT max(id) FROM imports WHERE platform = i.platform)")
        {
            guard let platform = ExportPlatform(rawValue: try row.decode(atIndex: 0)),
                let date = try row.decode(String?.self, atIndex: 1).flatMap(ExportTimestamp.parse)
            else { continue }
            lastExportDates[platform] = date.secondsSince1970
        }
        try db.execute(
            sql: "INSERT INTO imports (imported_at, input, header, objects, added, deleted, anchor) VALUES (?, ?, '{}', 0, 0, 0, ?)",
            arguments: [ISO8601DateFormatter().string(from: Date()), inputName, previousAnchor])
        importID = db.lastInsertedRowID
        let numbering = try StoredRowNumbering(db: db, path: storePath)
        var summaryCollector: SummaryCollector? = nil
        var tracksSummaryChanges = false
        if let zone = try StoreSummaries.timeZone(db, path: storePath) {
            let collector = try StoreSummaries.updatingCollector(db, priority: previousPriority)
            summaryMode = .update(zone, collector)
            summaryCollector = collector
            tracksSummaryChanges = true
        } else if base.count == 0 {
            // The export's own list, if it has one, replaces the store's (`ReadingSide.exportDidBegin`).
            let collector = SummaryCollector(priority: SourcePriority(healthConnect: previousPriority))
            summaryMode = .build(collector)
            summaryCollector = collector
        } else {
            summaryMode = .rebuild
        }
        reading = ReadingSide(
            base: base, numbering: numbering, firstAnchor: previousAnchor + 1, lastStoreAnchor: base.lastAnchor,
            lastExportDates: lastExportDates, storePath: storePath, force: force, summaryCollector: summaryCollector,
            tracksSummaryChanges: tracksSummaryChanges)
    }

    /// Reads the whole export on a second thread and inserts what is new on this one.
    func run(_ source: any ObjectSource, objectsRead: ((Int) -> Void)?) throws {
        let channel = reading.channel
        let box = ResultBox()
        // The source, its callbacks and the sink are used by the reading thread alone until it
        // ends; this thread only touches the channel meanwhile.
        reading.objectsRead = objectsRead
        var buildsSummary: SummaryCollector? = nil
        if case .build(let collector) = summaryMode { buildsSummary = collector }
        let storePath = storePath
        let makeBatch = summaryMode.collector?.makeBatch
        let base = reading.base
        let job = HandOff { [reading] in
            do {
                if let chunked = source as? any ChunkedObjectSource {
                    // Parsing, uuids and rows on every core; numbering in order, here.
                    try chunked.stream(
                        into: reading, makeChunkSink: { ImportChunk(finder: base.makeFinder(), summary: makeBatch?()) },
                        merge: { chunk in try reading.merge(chunk) })
                } else {
                    try source.stream(into: reading)
                }
                try reading.flush()
                // The first summary's rows, while the database's thread inserts the last batches.
                channel.close()
                if let buildsSummary {
                    box.builtSummary = try StoreSummaries.compute(
                        buildsSummary, exportOffset: reading.header.exportDate?.utcOffsetSeconds, path: storePath)
                }
            } catch {
                box.error = error
            }
            channel.close()
            box.done.signal()
        }
        let thread = Thread { job.body() }
        thread.stackSize = 8 << 20
        thread.start()
        let inserter = try RowInserter(db: db)
        // The indexes of `objects`, dropped for the first import into an empty store and made
        // again once its rows are in (sorting once is cheaper than keeping the B-trees ordered
        // row by row, the uuid's in random order; `Benchmarks/store.sh`). What they are is read
        // from the store, which the migrations made: the import states no schema of its own.
        var droppedIndexes: [String] = []
        if emptyStore {
            let indexes = try Row.fetchAll(
                db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'objects' AND sql IS NOT NULL ORDER BY name")
            for index in indexes {
                let name: String = try index.decode(forColumn: "name")
                try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
                droppedIndexes.append(try index.decode(forColumn: "sql"))
            }
        }
        do {
            // An object that comes back loses its tombstone (one prepared statement for all).
            let hasTombstones = (try Int.fetchOne(db, sql: "SELECT count(*) FROM deleted_objects") ?? 0) > 0
            let removeTombstone = hasTombstones ? try db.makeStatement(sql: "DELETE FROM deleted_objects WHERE uuid = ?") : nil
            while var batch = channel.take() {
                if let removeTombstone {
                    for row in batch { try removeTombstone.execute(arguments: [Data(StoredRow.bytes(row.uuid))]) }
                }
                for index in batch.indices {
                    batch[index].importID = importID
                    try inserter.insert(batch[index])
                }
                insertedRows += batch.count
            }
        } catch {
            // Stop the reader (it is blocked on, or will reach, the channel) and wait for it.
            channel.cancel()
            box.done.wait()
            throw error
        }
        // The indexes while the reading thread computes the first summary's rows.
        for index in droppedIndexes { try db.execute(sql: index) }
        box.done.wait()
        if let error = box.error { throw error }
        builtSummary = box.builtSummary
    }

    /// Work handed to the reading thread, which alone runs it.
    struct HandOff: @unchecked Sendable {
        let body: () -> Void
    }

    /// What the reading thread leaves behind, read after it ends.
    final class ResultBox: @unchecked Sendable {
        var error: Error?
        var builtSummary: StoreSummaries.Built?
        let done = DispatchSemaphore(value: 0)
    }

    /// After the last object: checks the export belongs here, turns what disappeared into
    /// tombstones, brings the summary tables up to date, and records the import.
    func finish() throws -> HealthStore.ImportSummary {
        let base = reading.base
        // The objects this import replaces: its own platform's. An Android export says nothing
        // of the iPhone's objects (nor the other way round), which stay as they are.
        let platform = reading.header.platform
        let isOwn: (Int64) -> Bool
        let ownCount: Int
        if storePlatforms.count > 1 {
            var own = base.makeAnchorSet()
            for anchor in try Int64.fetchAll(
                db, sql: "SELECT o.anchor FROM objects AS o JOIN imports AS i ON i.id = o.import_id WHERE i.platform = ? AND o.anchor <= ?",
                arguments: [platform.rawValue, reading.lastStoreAnchor])
            {
                own.insert(anchor)
            }
            isOwn = { own.contains($0) }
            ownCount = own.count
        } else {
            let own = storePlatforms.isEmpty || storePlatforms == [platform]
            isOwn = { _ in own }
            ownCount = own ? base.count : 0
        }
        if !force && ownCount >= 50 && reading.seenCount * 20 < ownCount {
            throw StoreError(
                .refusedImport,
                "\(storePath): the export holds only \(reading.seenCount) of the store's \(ownCount) objects; it looks like another person's export (use another store, or \(argument: .force))")
        }
        var nextAnchor = reading.nextAnchor
        var deleted = 0
        var summaryChanges = reading.summaryChanges
        /// Per source, the first position among its deleted samples (`SummarySources`).
        var deletedSources: [String: Int] = [:]
        if reading.seenCount < base.count {
            let columns = "uuid, kind, type_id, start_date, end_date, zone, creation_date, value, unit, source_id, device_id, body"
            let move = try db.makeStatement(sql: """
                INSERT INTO deleted_objects (anchor, \(columns), added_anchor, import_id)
                SELECT ?, \(columns), anchor, ? FROM objects WHERE anchor = ?
                """)
            let remove = try db.makeStatement(sql: "DELETE FROM objects WHERE anchor = ?")
            // A deleted sample's days are recomputed as an added one's are. SQL checks each
            // column's type: a damaged row is left out, not read as something it is not.
            var describe: Statement? = nil
            if case .update = summaryMode {
                describe = try db.makeStatement(sql: """
                    SELECT t.identifier, o.start_date, o.end_date, (SELECT name FROM sources WHERE id = o.source_id), o.anchor
                    FROM objects AS o JOIN sample_types AS t ON t.id = o.type_id
                    WHERE o.anchor = ? AND o.kind IN (\(StoredKind.summarized))
                        AND typeof(o.start_date) = 'integer' AND typeof(o.end_date) = 'integer'
                    """)
            }
            // Tombstones in uuid order, as `diff` reports deletions: the store's objects read in
            // the uuid index's order, a page at a time, with no uuid in memory but a page's.
            let pages = try StoreUUIDOrder(db: db, path: storePath, lastAnchor: reading.lastStoreAnchor)
            while let page = try pages.next(where: { !reading.wasSeen($0) && isOwn($0) }) {
                for anchor in page {
                    if let describe, let row = try Row.fetchOne(describe, arguments: [anchor]) {
                        summaryChanges.touch(type: try row.decode(atIndex: 0), start: try row.decode(atIndex: 1), end: try row.decode(atIndex: 2))
                        if let source = try row.decode(String?.self, atIndex: 3) {
                            deletedSources[source] = min(deletedSources[source] ?? Int.max, try row.decode(Int.self, atIndex: 4))
                        }
                    }
                    try move.execute(arguments: [nextAnchor, importID, anchor])
                    try remove.execute(arguments: [anchor])
                    nextAnchor += 1
                    deleted += 1
                }
            }
        }
        let typeIdentifiers = reading.numbering.typeIdentifiers
        for (typeID, extent) in reading.extents {
            guard let type = typeIdentifiers[typeID] else { continue }
            try db.execute(
                sql: """
                    INSERT INTO type_extents (type, max_duration, max_inversion) VALUES (?, ?, ?)
                    ON CONFLICT (type) DO UPDATE SET max_duration = max(max_duration, excluded.max_duration),
                        max_inversion = max(max_inversion, excluded.max_inversion)
                    """, arguments: [type, extent.duration, extent.inversion])
        }
        // The import is recorded before the summaries: its header's priority list is the
        // store's from now on (`StoreSummaries.healthConnectPriority`), for any rebuild below.
        let anchor = nextAnchor - 1
        try db.execute(sql: "UPDATE store_info SET value = ? WHERE key = 'anchor'", arguments: [anchor])
        let headerBuffer = OutputBuffer(descriptor: -1)
        JSONObjectEncoder.writeHeaderLine(reading.header, to: headerBuffer)
        var headerJSON = headerBuffer.takeBytes()
        if headerJSON.last == 0x0A { headerJSON.removeLast() }
        try db.execute(
            sql: """
                UPDATE imports SET export_date = ?, header = ?, objects = ?, added = ?, deleted = ?, anchor = ?, input_bytes = ?,
                    input_digest = ?, platform = ? WHERE id = ?
                """,
            arguments: [
                reading.header.exportDate?.iso8601, String(decoding: headerJSON, as: UTF8.self), reading.objectCount,
                insertedRows, deleted, anchor, digest?.byteCount, digest?.result(), reading.header.platform.rawValue, importID,
            ])
        var summaryTimeZone: TimeZone? = nil
        // Another priority list ranks every Health Connect sample anew: the tables are remade
        // whole (as Health Connect's totals change everywhere when the person reorders apps).
        priorityChanged = reading.header.healthConnectPriority.map { $0 != previousPriority } ?? false
        switch summaryMode {
        case .build:
            try StoreSummaries.build(db, builtSummary, firstAnchors: summaryChanges.firstAnchors)
        case .update where priorityChanged:
            try StoreSummaries.rebuild(db, path: storePath)
        case .update(let zone, let collector):
            summaryTimeZone = try StoreSummaries.update(
                db, path: storePath, zone: zone, collector: collector, previousAnchor: previousAnchor, changes: summaryChanges,
                deletedSources: deletedSources)
        case .rebuild:
            if insertedRows > 0 || deleted > 0 || priorityChanged { try StoreSummaries.rebuild(db, path: storePath) }
        }
        return HealthStore.ImportSummary(
            objects: reading.objectCount, added: insertedRows, deleted: deleted, anchor: anchorCipher.anchor(position: anchor),
            summaryTimeZone: summaryTimeZone?.identifier)
    }
}

/// The reading thread's sink: recognizes what the store already holds, and makes rows of what
/// is new, numbered in document order, in batches for the database's thread. Objects come one
/// by one (`consume`, a read on one thread) or a chunk at a time, prepared on the chunk's
/// thread (`merge`).
final class ReadingSide: ObjectSink, @unchecked Sendable {
    static let batchSize = 1024

    let base: StoreObjectIndex
    /// The finder of objects read on this thread (`consume`); a parallel read's chunks have
    /// their own.
    private let finder: any StoreObjectFinder
    /// The largest anchor of the store's objects before the import (0 for none).
    let lastStoreAnchor: Int64
    let channel = BatchChannel(capacity: 8)
    let numbering: StoredRowNumbering
    private let preparer = StoredRowPreparer()
    private let storePath: String
    private let force: Bool
    /// The latest export date imported of each platform.
    private let lastExportDates: [ExportPlatform: Int64]
    /// The store's objects the export holds, by anchor.
    private var seen: AnchorSet
    private var batch: [StoredRow] = []
    /// The number of the store's objects the export holds.
    var seenCount: Int { seen.count }
    private(set) var nextAnchor: Int
    private(set) var header = ExportHeader()
    private(set) var exportDateChanged = true
    private(set) var objectCount = 0
    /// Told how many objects were read, every 4,096 or every chunk (progress lines).
    var objectsRead: ((Int) -> Void)?
    /// Per type id, the longest duration and the largest inversion (end before start) of the
    /// new objects, in seconds: they bound the date prefilter of queries (`StorePrefilter`).
    private(set) var extents: [Int64: (duration: Int64, inversion: Int64)] = [:]
    /// The summary's collector, fed every new sample as it is read (`StoreSummaries`).
    private let summaryCollector: SummaryCollector?
    /// Whether the days of new samples are noted, for the summary to recompute them.
    private let tracksSummaryChanges: Bool
    /// The new samples' days and sources (`StoreSummaries.update`).
    private(set) var summaryChanges = SummaryChanges()

    init(
        base: StoreObjectIndex, numbering: StoredRowNumbering, firstAnchor: Int, lastStoreAnchor: Int64,
        lastExportDates: [ExportPlatform: Int64], storePath: String, force: Bool, summaryCollector: SummaryCollector?,
        tracksSummaryChanges: Bool
    ) {
        self.summaryCollector = summaryCollector
        self.tracksSummaryChanges = tracksSummaryChanges
        self.base = base
        finder = base.makeFinder()
        self.lastStoreAnchor = lastStoreAnchor
        self.numbering = numbering
        self.nextAnchor = firstAnchor
        self.lastExportDates = lastExportDates
        self.storePath = storePath
        self.force = force
        seen = base.makeAnchorSet()
        batch.reserveCapacity(Self.batchSize)
    }

    /// Whether the export holds the store's object at an anchor.
    func wasSeen(_ anchor: Int64) -> Bool { seen.contains(anchor) }

    func exportDidBegin(_ header: ExportHeader) throws {
        self.header = header
        // A first summary ranks as the export says (a Health Connect export's priority list);
        // an update's collector has the store's list, and another one remakes the tables. Both
        // tally a Health Connect export's offsets, for the zone its records' clock keeps.
        if tracksSummaryChanges { summaryCollector?.countOffsets(of: header) } else { summaryCollector?.adopt(header) }
        let date = header.exportDate?.secondsSince1970
        let lastExportDate = lastExportDates[header.platform]
        exportDateChanged = date != lastExportDate
        if !force, let date, let lastExportDate, date < lastExportDate {
            throw StoreError(
                .refusedImport,
                "\(storePath): the export is older than the last one imported; importing it would delete everything newer (use \(argument: .force) to import it anyway)")
        }
    }

    func consume(_ object: HealthObject) throws {
        objectCount += 1
        if objectCount & 4095 == 0, let objectsRead { objectsRead(objectCount) }
        if let anchor = try finder.anchor(of: object.uuid) {
            seen.insert(anchor)
            return
        }
        var row = try preparer.prepare(object)
        if row.summarized, let summaryCollector {
            do {
                try summaryCollector.add(object)
            } catch let error as QueryError {
                throw StoreError(.database, "\(storePath): cannot summarize the export: \(error.message)")
            }
        }
        try take(&row)
    }

    /// A chunk read on another thread, in document order.
    func merge(_ chunk: ImportChunk) throws {
        objectCount += chunk.count
        if let objectsRead { objectsRead(objectCount) }
        for anchor in chunk.seen { seen.insert(anchor) }
        if let records = chunk.summary, let summaryCollector {
            do {
                try summaryCollector.absorb(records)
            } catch let error as QueryError {
                throw StoreError(.database, "\(storePath): cannot summarize the export: \(error.message)")
            }
        }
        for index in chunk.rows.indices { try take(&chunk.rows[index]) }
        chunk.rows = []
    }

    /// Numbers a new object's row and queues it for the database's thread.
    private func take(_ row: inout StoredRow) throws {
        numbering.number(&row, anchor: Int64(nextAnchor))
        if let start = row.start, let end = row.end {
            let current = extents[row.typeID] ?? (0, 0)
            if end - start > current.duration || start - end > current.inversion {
                extents[row.typeID] = (max(current.duration, end - start), max(current.inversion, start - end))
            }
            if row.summarized, tracksSummaryChanges { summaryChanges.touch(type: row.typeIdentifier, start: start, end: end) }
        }
        if row.summarized, let source = row.sourceName { summaryChanges.added(source: source, anchor: nextAnchor) }
        batch.append(row)
        nextAnchor += 1
        if batch.count >= Self.batchSize { try flush() }
    }

    /// Hands the rows gathered so far to the database thread.
    func flush() throws {
        guard !batch.isEmpty else { return }
        guard channel.put(batch) else { throw CancellationError() }
        batch = []
        batch.reserveCapacity(Self.batchSize)
    }
}

/// One chunk of a parallel read, on its worker thread: the store's objects it holds (by anchor),
/// and rows for the others, prepared but not numbered (`StoredRowPreparer`), with the
/// chunk's summary records. Merged in document order by `ReadingSide.merge`.
final class ImportChunk: ObjectSink {
    private let finder: any StoreObjectFinder
    private let preparer = StoredRowPreparer()
    let summary: SummaryRecordBatch?
    var rows: [StoredRow] = []
    var seen: [Int64] = []
    private(set) var count = 0

    init(finder: any StoreObjectFinder, summary: SummaryRecordBatch?) {
        self.finder = finder
        self.summary = summary
    }

    func exportDidBegin(_ header: ExportHeader) throws {}

    func consume(_ object: HealthObject) throws {
        count += 1
        if let anchor = try finder.anchor(of: object.uuid) {
            seen.append(anchor)
            return
        }
        let row = try preparer.prepare(object)
        if row.summarized { summary?.add(object) }
        rows.append(row)
    }
}

/// A bounded queue of row batches between the reading and the database threads: the reader
/// waits when the database falls behind, so memory stays bounded.
final class BatchChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[StoredRow]] = []
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Returns `false` when the consumer gave up.
    func put(_ batch: [StoredRow]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append(batch)
        condition.broadcast()
        return true
    }

    /// The next batch; `nil` once the reader closed the channel and it is drained.
    func take() -> [StoredRow]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !closed { condition.wait() }
        if batches.isEmpty { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
