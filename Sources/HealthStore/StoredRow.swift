import Foundation
import GRDB
import HealthJSON
import HealthModel
import HealthQuery

/// The kinds of object, as the small integers of `objects.kind` (and the `kinds` table SQL reads
/// them by name from). Integers 0 and 1 take no byte at all in an SQLite record, the names took
/// 14; the two sample kinds, which are nearly every row, get them.
enum StoredKind {
    /// The code of each kind in the store's `kind` column and its `kinds` table. On disk for
    /// good: a code is never changed or reused (healthport-store(5)); a new kind takes the next
    /// number. `code(of:)`'s switch has no default, so a new `HealthObject` case does not compile
    /// until it has one here. `StoreKindCodeTests` pins every value.
    static let codes: [(name: String, code: Int64)] = [
        ("quantitySample", 0), ("categorySample", 1), ("correlation", 2), ("workout", 3), ("activitySummary", 4),
        ("clinicalRecord", 5), ("audiogram", 6), ("visionPrescription", 7), ("electrocardiogram", 8), ("unknown", 9),
    ]
    static let quantitySample: Int64 = 0
    static let categorySample: Int64 = 1

    static func code(of object: HealthObject) -> Int64 {
        switch object {
        case .quantitySample: 0
        case .categorySample: 1
        case .correlation: 2
        case .workout: 3
        case .activitySummary: 4
        case .clinicalRecord: 5
        case .audiogram: 6
        case .visionPrescription: 7
        case .electrocardiogram: 8
        case .unknown: 9
        }
    }

    /// The code of a kind's name (`HealthObject.kindName`); `nil` for a name that is no kind.
    static func code(_ name: String) -> Int64? { codes.first { $0.name == name }?.code }

    static func name(_ code: Int64) -> String? { codes.first { $0.code == code }?.name }

    /// The codes of the kinds the summary tables count, for `kind IN (…)`.
    static var summarized: String { SummaryCollector.summarizedKinds.compactMap { code($0).map(String.init) }.joined(separator: ", ") }
}

/// An object as one row of `objects` (or `deleted_objects`), ready to insert: everything computed
/// on the reading thread, so that the database's thread only binds and steps.
///
/// Two shapes (healthport-store(5)):
/// - a *plain* sample (`zone` not NULL): a quantity or category sample whose every field is in a
///   column — the uuid as 16 bytes, the type, source and device as ids, dates as integers with
///   one UTC offset — and whose metadata, if any, is the body, as `{"metadata":{…}}`. Most rows
///   of an export are plain: no JSON is written for them at import nor parsed at query time;
/// - any other object (`zone` NULL): its healthport JSON as the body, less what the columns hold
///   (`StoredBody`).
struct StoredRow: Sendable {
    var anchor: Int64
    var uuid: ObjectUUID
    var kind: Int64
    var typeID: Int64
    var start: Int64?
    var end: Int64?
    /// The UTC offset of every date of a plain sample; NULL for a JSON row.
    var zone: Int32?
    var creation: Int64?
    var value: Double?
    /// A quantity's unit; a category's value name.
    var unit: String?
    var sourceID: Int64?
    var deviceID: Int64?
    var body: [UInt8]?
    /// The import that added it: set by the database's thread (`RowInserter`), or kept by a
    /// migration.
    var importID: Int64 = 0
    /// For a tombstone, the position the object was added at.
    var addedAnchor: Int64? = nil
    /// What the ids stand for, as the object had them (`StoredRowPreparer`), until
    /// `StoredRowNumbering` numbers them.
    var typeIdentifier: String = ""
    var sourceName: String? = nil
    var sourceVersion: String? = nil
    /// The source's bundle identifier: a Health Connect app's package name, which its priority
    /// list ranks by (`HealthConnectRanking`); Apple's exports name none.
    var sourceBundle: String? = nil
    var device: Device? = nil
    /// Whether the summary tables count it (`SummaryCollector.summarizes`).
    var summarized = false
    /// Rows of `sample_types`, `sources` and `devices` this row is the first to use, inserted
    /// before it.
    var newType: String?
    var newSource: (name: String, version: String?, bundle: String?, key: String)?
    var newDevice: [UInt8]?

    /// The uuid as the 16 bytes of `objects.uuid` (big-endian, so that byte order is uuid order).
    static func bytes(_ uuid: ObjectUUID) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: uuid.high >> (56 - 8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: uuid.low >> (56 - 8 * UInt64(i)))
        }
        return bytes
    }

    static func uuid(_ bytes: UnsafeRawBufferPointer) -> ObjectUUID? {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for i in 0..<8 {
            high = high << 8 | UInt64(bytes[i])
            low = low << 8 | UInt64(bytes[8 + i])
        }
        return ObjectUUID(high: high, low: low)
    }

    static func uuid(_ data: [UInt8]) -> ObjectUUID? { data.withUnsafeBytes { uuid($0) } }
}

/// The spelling a plain sample's value is restored with: what `ExportNumber(_:)` spells, for the
/// values it spells without an exponent (an export's usual `72`, `0.5`, `1.25`), made without
/// Foundation. `ExportNumber(_:)` goes through `NSString.replacingOccurrences`: checking each
/// value with it cost 6.5 % of an import's samples (perf, the 4-year export of
/// `Benchmarks/store.sh`), and as much again for every row a query read back.
enum StoredNumber {
    /// `nil` for a value kept as JSON instead: not finite, or spelt with an exponent.
    static func text(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = value.description
        return text.utf8.contains(UInt8(ascii: "e")) ? nil : text
    }
}

/// Turns objects into rows (`StoredRow`), with everything but the ids: which objects are plain,
/// their columns, the JSON of the others. Holds no state shared between objects, so a parallel
/// import has one per chunk, on the chunk's thread (`ImportChunk`); `StoredRowNumbering` then
/// numbers the rows in document order.
final class StoredRowPreparer {
    /// The JSON of one object at a time (HealthJSON's encoder, the one NDJSON's writer uses).
    private let scratch = OutputBuffer(descriptor: -1, capacity: 64 * 1024)

    func prepare(_ object: HealthObject) throws -> StoredRow {
        var row = StoredRow(anchor: 0, uuid: object.uuid, kind: 0, typeID: 0)
        // One switch reads every field: the enum's accessors each switch and copy the payload
        // again (about 3 % of an import's samples as `outlined copy of HealthObject`).
        switch object {
        case .quantitySample(let q):
            row.kind = StoredKind.quantitySample
            sample(q.sample, into: &row)
            row.value = q.quantity.value.value
            row.unit = q.quantity.unit
            if q.count == 1, q.instantaneousBeatsPerMinute.isEmpty, Self.isPlain(q.sample),
                StoredNumber.text(q.quantity.value.value) == q.quantity.value.text
            {
                plain(q.sample, into: &row)
                return row
            }
        case .categorySample(let c):
            row.kind = StoredKind.categorySample
            sample(c.sample, into: &row)
            row.value = c.value.rawValue.map(Double.init)
            row.unit = c.value.name
            if Self.isPlain(c.sample), (c.value.rawValue.map { abs($0) < 1 << 53 } ?? true) {
                plain(c.sample, into: &row)
                return row
            }
        default:
            row.kind = StoredKind.code(of: object)
            row.typeIdentifier = object.objectType.identifier
            row.start = object.startDate?.secondsSince1970
            row.end = object.endDate?.secondsSince1970
            if case .clinicalRecord(let c) = object {
                row.sourceName = c.sourceName
            } else if let s = object.sampleAttributes {
                row.sourceName = s.sourceRevision.source.name
                row.sourceVersion = s.sourceRevision.version
                row.sourceBundle = s.sourceRevision.source.bundleIdentifier
                row.device = s.device
            }
            row.summarized = SummaryCollector.summarizes(object)
        }
        var stored = object
        _ = stored.takeDevice()
        JSONObjectEncoder.writeLine(stored, to: scratch)
        var json = scratch.takeBytes()
        json.removeLast()  // the newline
        row.body = StoredBody.strip(json, kind: object.kindName, uuid: object.uuid.uuidString, type: row.typeIdentifier)
        return row
    }

    private func sample(_ s: SampleAttributes, into row: inout StoredRow) {
        row.typeIdentifier = s.sampleType.identifier
        row.start = s.startDate.secondsSince1970
        row.end = s.endDate.secondsSince1970
        row.sourceName = s.sourceRevision.source.name
        row.sourceVersion = s.sourceRevision.version
        row.sourceBundle = s.sourceRevision.source.bundleIdentifier
        row.device = s.device
        row.summarized = true
    }

    /// Whether a sample's fields other than its value all fit the columns: one UTC offset for
    /// its dates, no pass-through attributes. (The source revision's product type and system
    /// version are not part of healthport's JSON either; its bundle identifier is a column of
    /// `sources`.)
    private static func isPlain(_ s: SampleAttributes) -> Bool {
        let zone = s.startDate.utcOffsetSeconds
        return s.endDate.utcOffsetSeconds == zone && (s.creationDate.map { $0.utcOffsetSeconds == zone } ?? true)
            && s.extensions.isEmpty
    }

    private func plain(_ s: SampleAttributes, into row: inout StoredRow) {
        row.zone = s.startDate.utcOffsetSeconds
        row.creation = s.creationDate?.secondsSince1970
        if !s.metadata.isEmpty { row.body = ModelJSON.encode(metadata: s.metadata) }
    }
}

/// Numbers what rows refer to, in document order: each distinct type, source revision and
/// device gets the next id the first time a row uses it, and that row carries it to the
/// database's thread (`StoredRow.newType`…). One per import; it knows every id the store
/// holds when it is made.
final class StoredRowNumbering {
    private struct SourceKey: Hashable {
        var name: String
        var version: String?
        var bundle: String?
    }
    private var types = DistinctValueIDs<String>()
    private var sources = DistinctValueIDs<SourceKey>()
    private var devices = DistinctValueIDs<Device>()

    /// Loads the store's types, sources and devices.
    ///
    /// - Throws: `StoreError.incompatible` for a device the store cannot read back.
    init(db: Database, path: String) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, identifier FROM sample_types") {
            types.load(try row.decode(atIndex: 1), id: try row.decode(atIndex: 0))
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, name, version, bundle_identifier FROM sources") {
            sources.load(
                SourceKey(name: try row.decode(atIndex: 1), version: try row.decode(atIndex: 2), bundle: try row.decode(atIndex: 3)),
                id: try row.decode(atIndex: 0))
        }
        let deviceRows = try Row.fetchCursor(db, sql: "SELECT id, body FROM devices")
        while let row = try deviceRows.next() {
            let id: Int64 = try row.decode(atIndex: 0)
            let body: String = try row.decode(atIndex: 1)
            do {
                devices.load(try ObjectDecoder.decodeDevice(Array(body.utf8)), id: id)
            } catch {
                throw StoreError(.incompatible, "\(path): the store is damaged (device \(id): \(error))")
            }
        }
    }

    /// The identifier of each type id this numbering knows.
    var typeIdentifiers: [Int64: String] { Dictionary(uniqueKeysWithValues: types.ids.map { ($0.value, $0.key) }) }

    /// Sets the row's anchor and ids; drops the values they stand for.
    func number(_ row: inout StoredRow, anchor: Int64) {
        row.anchor = anchor
        let identifier = row.typeIdentifier
        let type = types.id(of: identifier)
        row.typeID = type.id
        if type.isNew { row.newType = identifier }
        if let name = row.sourceName {
            let key = SourceKey(name: name, version: row.sourceVersion, bundle: row.sourceBundle)
            let source = sources.id(of: key)
            row.sourceID = source.id
            if source.isNew { row.newSource = (name, key.version, key.bundle, SourceName.normalized(name)) }
        }
        if let device = row.device {
            let stored = devices.id(of: device)
            row.deviceID = stored.id
            if stored.isNew { row.newDevice = ModelJSON.encode(device) }
            row.device = nil
        }
    }
}

/// Rebuilds objects from rows of `objects` or `deleted_objects` (`StoredRow`), with each
/// distinct type, source and device read once.
final class StoredObjectDecoder {
    /// The columns `decode` reads, in this order.
    static let columns = "anchor, kind, uuid, type_id, start_date, end_date, zone, creation_date, value, unit, source_id, device_id, body"
    /// The same, of a table named `o`.
    static let qualifiedColumns = columns.split(separator: ",").map { "o." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    private let db: Database
    private let path: String
    private var devices = StoredDevices()
    private var types: [Int64: String] = [:]
    private var sources: [Int64: SourceRevision] = [:]

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    private func damaged(_ anchor: Int64, _ what: String) -> StoreError {
        StoreError(.incompatible, "\(path): the store is damaged (object \(anchor): \(what))")
    }

    /// The row's object.
    ///
    /// - Throws: `StoreError.incompatible` for a row healthport cannot have written: a column
    ///   missing, or holding a value of another kind (GRDB's subscript would stop the process
    ///   there; `decode(atIndex:)` throws, and a damaged row is one `StoreError`, which the
    ///   summary tables leave out and every reader refuses).
    func decode(_ row: Row) throws -> HealthObject {
        let anchor: Int64
        do {
            anchor = try row.decode(atIndex: 0)
        } catch is RowDecodingError {
            throw StoreError(.incompatible, "\(path): the store is damaged (an object's position is not a number)")
        }
        do {
            return try decode(row, anchor: anchor)
        } catch is RowDecodingError {
            throw damaged(anchor, "a column holds a value of another kind")
        }
    }

    private func decode(_ row: Row, anchor: Int64) throws -> HealthObject {
        guard let kindCode = try row.decode(Int64?.self, atIndex: 1), let kind = StoredKind.name(kindCode),
            let typeID = try row.decode(Int64?.self, atIndex: 3)
        else {
            throw damaged(anchor, "incomplete")
        }
        // Read in place: a `DatabaseValue` copied every row's 16 bytes into a new `Data`.
        let uuid = try row.withUnsafeData(atIndex: 2) { data in data?.withUnsafeBytes { StoredRow.uuid($0) } ?? nil }
        guard let uuid else { throw damaged(anchor, "invalid uuid") }
        let type = try self.type(typeID)
        var object: HealthObject
        if let zone = try row.decode(Int64?.self, atIndex: 6) {
            object = try plain(row, anchor: anchor, kind: kindCode, uuid: uuid, type: type, zone: zone)
        } else {
            guard let body = try row.decode(String?.self, atIndex: 12) else { throw damaged(anchor, "no body") }
            do {
                object = try ObjectDecoder.decode(StoredBody.restore(body, kind: kind, uuid: uuid.uuidString, type: type))
            } catch {
                throw damaged(anchor, "\(error)")
            }
        }
        if let id = try row.decode(Int64?.self, atIndex: 11) { object.restoreDevice(try device(id)) }
        return object
    }

    private func plain(_ row: Row, anchor: Int64, kind: Int64, uuid: ObjectUUID, type: String, zone: Int64) throws -> HealthObject {
        guard let start = try row.decode(Int64?.self, atIndex: 4), let end = try row.decode(Int64?.self, atIndex: 5),
            let offset = Int32(exactly: zone)
        else {
            throw damaged(anchor, "incomplete")
        }
        var sample = SampleAttributes(
            uuid: uuid, sampleType: ObjectType(recordType: type), sourceRevision: SourceRevision(source: Source(name: "")),
            startDate: ExportTimestamp(secondsSince1970: start, utcOffsetSeconds: offset),
            endDate: ExportTimestamp(secondsSince1970: end, utcOffsetSeconds: offset))
        if let creation = try row.decode(Int64?.self, atIndex: 7) { sample.creationDate = ExportTimestamp(secondsSince1970: creation, utcOffsetSeconds: offset) }
        if let id = try row.decode(Int64?.self, atIndex: 10) { sample.sourceRevision = try source(id) }
        if let metadata = try row.withUnsafeData(atIndex: 12, { body in try body.map { try self.metadata($0, anchor: anchor) } }) {
            sample.metadata = metadata
        }
        switch kind {
        case StoredKind.quantitySample:
            guard let value = try row.decode(Double?.self, atIndex: 8), let unit = try row.decode(String?.self, atIndex: 9) else { throw damaged(anchor, "no quantity") }
            guard let text = StoredNumber.text(value) else { throw damaged(anchor, "invalid quantity") }
            let number = ExportNumber(text: text, value: value)
            return .quantitySample(QuantitySample(sample: sample, quantity: Quantity(value: number, unit: unit)))
        case StoredKind.categorySample:
            var raw: Int? = nil
            if let value = try row.decode(Double?.self, atIndex: 8) {
                guard let exact = Int(exactly: value) else { throw damaged(anchor, "invalid category value") }
                raw = exact
            }
            return .categorySample(CategorySample(sample: sample, value: CategoryValue(rawValue: raw, name: try row.decode(atIndex: 9))))
        default:
            throw damaged(anchor, "a plain row of kind \(kind)")
        }
    }

    /// Plain samples' metadata repeats (a heart rate's motion context has three values): each
    /// distinct body is parsed once, the last few found by comparing bytes in place, up to
    /// `metadataCacheLimit` in all. Parsing every one was a quarter of the one-month query of
    /// `Benchmarks/store.sh`, and making a `String` of each body a few percent more.
    private var recentMetadata: [(body: [UInt8], metadata: Metadata)] = []
    private var metadataCache: [[UInt8]: Metadata] = [:]
    private static let metadataCacheLimit = 4096
    private static let recentLimit = 8

    private func metadata(_ body: Data, anchor: Int64) throws -> Metadata {
        let found = body.withUnsafeBytes { bytes -> Metadata? in
            for entry in recentMetadata where entry.body.count == bytes.count {
                if entry.body.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) { return entry.metadata }
            }
            return nil
        }
        if let found { return found }
        let bytes = [UInt8](body)
        let metadata: Metadata
        if let cached = metadataCache[bytes] {
            metadata = cached
        } else {
            do {
                metadata = try ObjectDecoder.decodeMetadata(bytes)
            } catch {
                throw damaged(anchor, "\(error)")
            }
            if metadataCache.count < Self.metadataCacheLimit { metadataCache[bytes] = metadata }
        }
        if recentMetadata.count == Self.recentLimit { recentMetadata.removeFirst() }
        recentMetadata.append((bytes, metadata))
        return metadata
    }

    private func type(_ id: Int64) throws -> String {
        if let type = types[id] { return type }
        guard let type = try String.fetchOne(db, sql: "SELECT identifier FROM sample_types WHERE id = ?", arguments: [id]) else {
            throw StoreError(.incompatible, "\(path): the store is damaged (type \(id) is missing)")
        }
        types[id] = type
        return type
    }

    private func source(_ id: Int64) throws -> SourceRevision {
        if let source = sources[id] { return source }
        guard let row = try Row.fetchOne(db, sql: "SELECT name, version, bundle_identifier FROM sources WHERE id = ?", arguments: [id]) else {
            throw StoreError(.incompatible, "\(path): the store is damaged (source \(id) is missing)")
        }
        let source = SourceRevision(
            source: Source(name: try row.decode(atIndex: 0), bundleIdentifier: try row.decode(atIndex: 2)), version: try row.decode(atIndex: 1))
        sources[id] = source
        return source
    }

    private func device(_ id: Int64) throws -> Device { try devices.device(id, db: db, path: path) }
}
