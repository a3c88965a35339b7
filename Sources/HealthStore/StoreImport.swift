import Foundation
import GRDB
import HealthModel
import HealthOutput
import HealthQuery

extension HealthStore {
    /// The page cache an import uses, in KiB.
    static let importCacheKiB = 128 * 1024

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
    /// - Throws: `StoreError.refusedImport`, what the source throws (`ExportError`),
    ///   `StoreError.database`.
    public func importObjects(
        from source: any ObjectSource, inputName: String, force: Bool = false, objectsRead: ((Int) -> Void)? = nil
    ) throws -> ImportSummary {
        try Self.wrap(path) {
            var result: ImportSummary? = nil
            try pool.writeWithoutTransaction { db in
                // An import writes far more pages than SQLite's default 2 MB cache holds; a larger
                // cache keeps the indexes' hot pages from being spilled to the WAL and re-read.
                try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                try db.inTransaction(.immediate) {
                    let importer = try Importer(db: db, storePath: path, inputName: inputName, force: force, anchorCipher: anchorCipher)
                    try importer.run(source, objectsRead: objectsRead)
                    let summary = try importer.finish()
                    result = summary
                    // The same export again: leave the store exactly as it was.
                    return summary.unchanged && !importer.reading.exportDateChanged ? .rollback : .commit
                }
            }
            return result!
        }
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

    /// How this import keeps the summary tables (`StoreSummaries`).
    enum SummaryMode {
        /// The store holds nothing: a collector is fed the objects as they are read.
        case build(SummaryCollector)
        /// The store's days are cut in this zone: the days the import touches are recomputed.
        case update(TimeZone)
        /// No zone yet, though the store holds objects (none of them samples the summary
        /// counts): everything from the store's rows, once the import's are in.
        case rebuild
    }

    init(db: Database, storePath: String, inputName: String, force: Bool, anchorCipher: StoreAnchorCipher) throws {
        self.db = db
        self.anchorCipher = anchorCipher
        self.storePath = storePath
        self.force = force
        previousAnchor = try HealthStore.anchor(db)
        var base = IdentitySet()
        let cursor = try Row.fetchCursor(db, sql: "SELECT uuid, type FROM objects")
        while let row = try cursor.next() {
            let text: String = row[0]
            guard let uuid = ObjectUUID(uuidString: text) else {
                throw StoreError(.incompatible, "\(storePath): the store is damaged (invalid uuid '\(text.prefix(40))')")
            }
            base.insert(uuid, type: row[1])
        }
        base.finish()
        let lastExportDate = try String.fetchOne(db, sql: "SELECT export_date FROM imports ORDER BY id DESC LIMIT 1")
            .flatMap(ExportTimestamp.parse)?.secondsSince1970
        try db.execute(
            sql: "INSERT INTO imports (imported_at, input, header, objects, added, deleted, anchor) VALUES (?, ?, '{}', 0, 0, 0, ?)",
            arguments: [ISO8601DateFormatter().string(from: Date()), inputName, previousAnchor])
        importID = db.lastInsertedRowID
        var devices: [Device: Int64] = [:]
        var lastDeviceID: Int64 = 0
        let deviceRows = try Row.fetchCursor(db, sql: "SELECT id, body FROM devices")
        while let row = try deviceRows.next() {
            let id: Int64 = row[0]
            let body: String = row[1]
            do {
                devices[try ObjectDecoder.decodeDevice(Array(body.utf8))] = id
            } catch {
                throw StoreError(.incompatible, "\(storePath): the store is damaged (device \(id): \(error))")
            }
            lastDeviceID = max(lastDeviceID, id)
        }
        if let zone = try StoreSummaries.timeZone(db, path: storePath) {
            summaryMode = .update(zone)
        } else {
            summaryMode = base.count == 0 ? .build(SummaryCollector()) : .rebuild
        }
        var summaryCollector: SummaryCollector? = nil
        if case .build(let collector) = summaryMode { summaryCollector = collector }
        var tracksSummaryChanges = false
        if case .update = summaryMode { tracksSummaryChanges = true }
        reading = ReadingSide(
            base: base, devices: devices, nextDeviceID: lastDeviceID + 1, firstAnchor: previousAnchor + 1,
            lastExportDate: lastExportDate, storePath: storePath, force: force, summaryCollector: summaryCollector,
            tracksSummaryChanges: tracksSummaryChanges)
    }

    /// Reads the whole export on a second thread and inserts what is new on this one.
    func run(_ source: any ObjectSource, objectsRead: ((Int) -> Void)?) throws {
        let channel = reading.channel
        let box = ResultBox()
        // The source, its callbacks and the sink are used by the reading thread alone until it
        // ends; this thread only touches the channel meanwhile.
        reading.objectsRead = objectsRead
        let job = HandOff { [reading] in
            do {
                try source.stream(into: reading)
                try reading.flush()
            } catch {
                box.error = error
            }
            channel.close()
            box.done.signal()
        }
        let thread = Thread { job.body() }
        thread.stackSize = 8 << 20
        thread.start()
        let inserter = try RowInserter(db: db, importID: importID)
        do {
            // An object that comes back loses its tombstone (one prepared statement for all).
            let hasTombstones = (try Int.fetchOne(db, sql: "SELECT count(*) FROM deleted_objects") ?? 0) > 0
            let removeTombstone = hasTombstones ? try db.makeStatement(sql: "DELETE FROM deleted_objects WHERE uuid = ?") : nil
            while let batch = channel.take() {
                if let removeTombstone {
                    for row in batch { try removeTombstone.execute(arguments: [row.uuid]) }
                }
                for row in batch {
                    if let device = row.newDevice { try inserter.insertDevice(id: row.deviceID!, body: device) }
                    try inserter.insert(row)
                }
                insertedRows += batch.count
            }
        } catch {
            // Stop the reader (it is blocked on, or will reach, the channel) and wait for it.
            channel.cancel()
            box.done.wait()
            throw error
        }
        box.done.wait()
        if let error = box.error { throw error }
    }

    /// Work handed to the reading thread, which alone runs it.
    struct HandOff: @unchecked Sendable {
        let body: () -> Void
    }

    /// What the reading thread leaves behind, read after it ends.
    final class ResultBox: @unchecked Sendable {
        var error: Error?
        let done = DispatchSemaphore(value: 0)
    }

    /// After the last object: checks the export belongs here, turns what disappeared into
    /// tombstones, brings the summary tables up to date, and records the import.
    func finish() throws -> HealthStore.ImportSummary {
        let base = reading.base
        if !force && base.count >= 50 && reading.seenCount * 20 < base.count {
            throw StoreError(
                .refusedImport,
                "\(storePath): the export holds only \(reading.seenCount) of the store's \(base.count) objects; it looks like another person's export (use another store, or \(argument: .force))")
        }
        var nextAnchor = reading.nextAnchor
        var deleted = 0
        var summaryChanges = reading.summaryChanges
        /// Per source, the first position among its deleted samples (`SummarySources`).
        var deletedSources: [String: Int] = [:]
        if reading.seenCount < base.count {
            let move = try db.makeStatement(sql: """
                INSERT INTO deleted_objects (anchor, uuid, kind, type, start_date, end_date, device_id, added_anchor, import_id, body)
                SELECT ?, uuid, kind, type, start_date, end_date, device_id, anchor, ?, body FROM objects WHERE uuid = ?
                """)
            let remove = try db.makeStatement(sql: "DELETE FROM objects WHERE uuid = ?")
            // A deleted sample's days are recomputed as an added one's are.
            var describe: Statement? = nil
            if case .update = summaryMode {
                describe = try db.makeStatement(sql: "SELECT kind, type, start_date, end_date, source, anchor FROM objects WHERE uuid = ?")
            }
            for index in 0..<base.count where !reading.wasSeen(index) {
                let uuid = base.uuids[index].uuidString
                if let describe, let row = try Row.fetchOne(describe, arguments: [uuid]),
                    SummaryCollector.summarizedKinds.contains(row[0] as String), let start = row[2] as Int64?, let end = row[3] as Int64?
                {
                    summaryChanges.touch(type: row[1], start: start, end: end)
                    if let source = row[4] as String? { deletedSources[source] = min(deletedSources[source] ?? Int.max, row[5] as Int) }
                }
                try move.execute(arguments: [nextAnchor, importID, uuid])
                try remove.execute(arguments: [uuid])
                nextAnchor += 1
                deleted += 1
            }
        }
        for (type, extent) in reading.extents {
            try db.execute(
                sql: """
                    INSERT INTO type_extents (type, max_duration, max_inversion) VALUES (?, ?, ?)
                    ON CONFLICT (type) DO UPDATE SET max_duration = max(max_duration, excluded.max_duration),
                        max_inversion = max(max_inversion, excluded.max_inversion)
                    """, arguments: [type, extent.duration, extent.inversion])
        }
        switch summaryMode {
        case .build(let collector):
            try StoreSummaries.build(
                db, path: storePath, collector: collector, exportOffset: reading.header.exportDate?.utcOffsetSeconds,
                firstAnchors: summaryChanges.firstAnchors)
        case .update(let zone):
            try StoreSummaries.update(db, path: storePath, zone: zone, changes: summaryChanges, deletedSources: deletedSources)
        case .rebuild:
            if insertedRows > 0 || deleted > 0 { try StoreSummaries.rebuild(db, path: storePath) }
        }
        let anchor = nextAnchor - 1
        try db.execute(sql: "UPDATE store_info SET value = ? WHERE key = 'anchor'", arguments: [anchor])
        let headerBuffer = OutputBuffer(descriptor: -1)
        try NDJSONWriter(buffer: headerBuffer).begin(reading.header)
        var headerJSON = headerBuffer.takeBytes()
        if headerJSON.last == 0x0A { headerJSON.removeLast() }
        try db.execute(
            sql: "UPDATE imports SET export_date = ?, header = ?, objects = ?, added = ?, deleted = ?, anchor = ? WHERE id = ?",
            arguments: [
                reading.header.exportDate?.iso8601, String(decoding: headerJSON, as: UTF8.self), reading.objectCount,
                insertedRows, deleted, anchor, importID,
            ])
        return HealthStore.ImportSummary(
            objects: reading.objectCount, added: insertedRows, deleted: deleted, anchor: anchorCipher.anchor(position: anchor))
    }
}

/// An object new to the store, ready to insert: everything computed on the reading thread.
struct PendingRow: Sendable {
    var anchor: Int64
    var uuid: String
    var kind: String
    var type: String
    var start: Int64?
    var end: Int64?
    var value: Double?
    var unit: String?
    var source: String?
    var sourceKey: String?
    var device: String?
    var deviceID: Int64?
    /// The device's JSON, when this row is the first to use it.
    var newDevice: [UInt8]?
    var body: [UInt8]
}

/// The reading thread's sink: recognizes what the store already holds, and encodes what is new
/// into rows, in batches.
final class ReadingSide: ObjectSink, @unchecked Sendable {
    static let batchSize = 1024

    let base: IdentitySet
    let channel = BatchChannel(capacity: 8)
    private let storePath: String
    private let force: Bool
    private let lastExportDate: Int64?
    private let encoder = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
    private var seen: [UInt64]
    private var batch: [PendingRow] = []
    private(set) var seenCount = 0
    private(set) var nextAnchor: Int
    private(set) var header = ExportHeader()
    private(set) var exportDateChanged = true
    private(set) var objectCount = 0
    /// Told how many objects were read, every 4,096 (progress lines).
    var objectsRead: ((Int) -> Void)?
    /// Per type, the longest duration and the largest inversion (end before start) of the new
    /// objects, in seconds: they bound the date prefilter of queries (`StorePrefilter`).
    private(set) var extents: [String: (duration: Int64, inversion: Int64)] = [:]

    private var devices: [Device: Int64]
    private var nextDeviceID: Int64
    /// The previous object's device and its id: consecutive samples share one (the reader
    /// interns devices), so most objects skip the dictionary. Held, so its identity stays unique.
    private var lastDevice: (device: Device, id: Int64)? = nil
    /// Normalizing a name (Unicode folding) costs microseconds; an export has a few dozen.
    private var sourceKeys: [String: String] = [:]
    /// An empty store's first summary, fed every new sample as it is read (`StoreSummaries.build`).
    private let summaryCollector: SummaryCollector?
    /// Whether the days of new samples are noted, for the summary to recompute them.
    private let tracksSummaryChanges: Bool
    /// The new samples' days and sources (`StoreSummaries.update`).
    private(set) var summaryChanges = SummaryChanges()

    init(
        base: IdentitySet, devices: [Device: Int64], nextDeviceID: Int64, firstAnchor: Int, lastExportDate: Int64?,
        storePath: String, force: Bool, summaryCollector: SummaryCollector?, tracksSummaryChanges: Bool
    ) {
        self.summaryCollector = summaryCollector
        self.tracksSummaryChanges = tracksSummaryChanges
        self.base = base
        self.devices = devices
        self.nextDeviceID = nextDeviceID
        self.nextAnchor = firstAnchor
        self.lastExportDate = lastExportDate
        self.storePath = storePath
        self.force = force
        seen = Array(repeating: 0, count: base.count / 64 + 1)
        batch.reserveCapacity(Self.batchSize)
    }

    func wasSeen(_ index: Int) -> Bool { seen[index / 64] & (1 << UInt64(index % 64)) != 0 }

    func exportDidBegin(_ header: ExportHeader) throws {
        self.header = header
        let date = header.exportDate?.secondsSince1970
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
        let uuid = object.uuid
        if let index = base.index(of: uuid) {
            if !wasSeen(index) {
                seen[index / 64] |= 1 << UInt64(index % 64)
                seenCount += 1
            }
            return
        }
        var stored = object
        var deviceID: Int64? = nil
        var newDevice: [UInt8]? = nil
        if let device = stored.takeDevice() {
            if let last = lastDevice, last.device.storageToken == device.storageToken {
                deviceID = last.id
            } else if let id = devices[device] {
                deviceID = id
            } else {
                deviceID = nextDeviceID
                devices[device] = nextDeviceID
                nextDeviceID += 1
                newDevice = ModelJSON.encode(device)
            }
            lastDevice = (device, deviceID!)
        }
        let type = object.objectType.identifier
        let uuidText = uuid.uuidString
        var json = try encoder.encode(stored)
        json.removeLast()  // the newline
        let body = StoredBody.strip(json, kind: object.kindName, uuid: uuidText, type: type)
        let start = object.startDate?.secondsSince1970
        let end = object.endDate?.secondsSince1970
        if let start, let end {
            let current = extents[type] ?? (0, 0)
            if end - start > current.duration || start - end > current.inversion {
                extents[type] = (max(current.duration, end - start), max(current.inversion, start - end))
            }
        }
        var value: Double? = nil
        var unit: String? = nil
        switch object {
        case .quantitySample(let q):
            value = q.quantity.value.value
            unit = q.quantity.unit
        case .categorySample(let c):
            value = c.value.rawValue.map(Double.init)
        default:
            break
        }
        let source: String?
        if case .clinicalRecord(let c) = object { source = c.sourceName } else { source = object.sampleAttributes?.sourceRevision.source.name }
        var sourceKey: String? = nil
        if let source {
            if let key = sourceKeys[source] {
                sourceKey = key
            } else {
                let key = SourceName.normalized(source)
                sourceKeys[source] = key
                sourceKey = key
            }
        }
        if SummaryCollector.summarizes(object) {
            if let summaryCollector {
                do {
                    try summaryCollector.add(object)
                } catch let error as QueryError {
                    throw StoreError(.database, "\(storePath): cannot summarize the export: \(error.message)")
                }
            } else if tracksSummaryChanges, let start, let end {
                summaryChanges.touch(type: type, start: start, end: end)
            }
            if let source { summaryChanges.added(source: source, anchor: nextAnchor) }
        }
        batch.append(
            PendingRow(
                anchor: Int64(nextAnchor), uuid: uuidText, kind: object.kindName, type: type, start: start, end: end,
                value: value, unit: unit, source: source, sourceKey: sourceKey, device: object.sampleAttributes?.device?.name,
                deviceID: deviceID, newDevice: newDevice, body: body))
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

/// A bounded queue of row batches between the reading and the database threads: the reader
/// waits when the database falls behind, so memory stays bounded.
final class BatchChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[PendingRow]] = []
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Returns `false` when the consumer gave up.
    func put(_ batch: [PendingRow]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append(batch)
        condition.broadcast()
        return true
    }

    /// The next batch; `nil` once the reader closed the channel and it is drained.
    func take() -> [PendingRow]? {
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
