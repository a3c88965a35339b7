import HealthModel

/// Reads a Health Connect export (`health_connect_export.db`, the SQLite copy of Health
/// Connect's database that Android's "Export and import" writes) into the model, as HealthKit
/// would hold the same data: the public entry point of this module.
///
/// The database is a stranger's file: it is opened read-only and immutable, its layout is
/// checked against AOSP's before anything is read (a located `HealthConnectError` otherwise),
/// records stream one row at a time, and what is held (apps, devices, one row's text) is
/// bounded (`HealthConnectLimits`). Each record keeps its own 16-byte uuid, which Health
/// Connect keeps across exports, so two exports of one phone compare object by object.
///
/// For example:
/// ```swift
/// let reader = try HealthConnectReader(path: "health_connect_export.db")
/// let summary = try reader.read(into: mySink)
/// ```
public final class HealthConnectReader {
    /// `PRAGMA user_version`: Health Connect's database version (10 for the layout
    /// `docs/health-connect.md` describes; older ones lack the generated local-time columns).
    public let schemaVersion: Int64
    private let database: ReadOnlyDatabase
    private let limits: HealthConnectLimits
    private let provenance: Provenance
    /// The record tables the database has, in reading order.
    private let tables: [RecordTable]
    /// Each record table's child tables that the database has.
    private let children: [String: [RecordTable.ChildTable]]
    /// The tables the reader knows that this database does not have (older versions).
    public let absentTables: [String]

    /// Whether the first bytes of a file are an SQLite database's (`SQLite format 3\0`).
    public static func isSQLite(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: Array("SQLite format 3\0".utf8))
    }

    /// Opens the database and checks that it is Health Connect's.
    ///
    /// - Throws: `HealthConnectError` `.notADatabase` (not SQLite), `.notHealthConnect` (a
    ///   table or column AOSP's layout has is missing: the error names it), `.limitExceeded`
    ///   or `.invalidValue` (the apps or devices).
    public init(path: String, limits: HealthConnectLimits = HealthConnectLimits()) throws(HealthConnectError) {
        database = try ReadOnlyDatabase(path: path)
        self.limits = limits
        schemaVersion = try database.userVersion()
        let required: [(String, [String])] = [
            ("application_info_table", ["row_id", "package_name", "app_name"]),
            ("device_info_table", ["row_id", "manufacturer", "model", "device_type"]),
            ("health_data_category_priority_table", ["row_id", "health_data_category", "app_id_priority_order"]),
        ]
        for (table, columns) in required {
            let present = try database.columns(of: table)
            guard !present.isEmpty else {
                throw HealthConnectError(.notHealthConnect, "an SQLite database without Health Connect's \(table)", table: table)
            }
            if let missing = columns.first(where: { !present.contains($0) }) {
                throw HealthConnectError(.notHealthConnect, "not Health Connect's layout (the column is missing)", table: table, column: missing)
            }
        }
        var tables: [RecordTable] = []
        var absent: [String] = []
        var presentChildren: [String: [RecordTable.ChildTable]] = [:]
        for table in RecordTable.all {
            let present = try database.columns(of: table.name)
            guard !present.isEmpty else {
                absent.append(table.name)
                continue
            }
            if let missing = table.columns.first(where: { !present.contains($0) }) {
                throw HealthConnectError(.notHealthConnect, "not Health Connect's layout (the column is missing)", table: table.name, column: missing)
            }
            var children: [RecordTable.ChildTable] = []
            for child in table.children {
                let childColumns = try database.columns(of: child.name)
                guard !childColumns.isEmpty else {
                    if child.required {
                        throw HealthConnectError(.notHealthConnect, "\(table.name) without its \(child.name)", table: child.name)
                    }
                    absent.append(child.name)
                    continue
                }
                if let missing = child.columns.first(where: { !childColumns.contains($0) }) {
                    throw HealthConnectError(.notHealthConnect, "not Health Connect's layout (the column is missing)", table: child.name, column: missing)
                }
                children.append(child)
            }
            presentChildren[table.name] = children
            tables.append(table)
        }
        self.tables = tables
        self.children = presentChildren
        absentTables = absent
        provenance = try Provenance(database, limits: limits)
    }

    /// What the export says about itself: its priority list, its locale (`android_metadata`),
    /// and as its date the latest modification of any record, with that record's offset (the
    /// offset a summary cuts days at when the person names no zone).
    public func header() throws(HealthConnectError) -> ExportHeader {
        var header = ExportHeader(platform: .healthConnect)
        header.healthConnectPriority = try provenance.priority(database, limits: limits)
        if try !database.columns(of: "android_metadata").isEmpty {
            let locale = try database.prepare("SELECT locale FROM android_metadata LIMIT 1", table: "android_metadata")
            if try locale.step() { header.locale = locale.text(0, limit: 64) }
        }
        var latest: (millis: Int64, offset: Int64)? = nil
        for table in tables {
            let offsetColumn = table.layout.isInstant ? "zone_offset" : "start_zone_offset"
            let query = try database.prepare(
                "SELECT last_modified_time, \(offsetColumn) FROM \(table.name) WHERE last_modified_time IS NOT NULL ORDER BY last_modified_time DESC LIMIT 1",
                table: table.name)
            guard try query.step() else { continue }
            let millis = query.int64(0)
            if latest == nil || millis > latest!.millis { latest = (millis, query.int64(1)) }
        }
        if let latest, RecordTime.problem(millis: latest.millis, offset: latest.offset) == nil {
            header.exportDate = RecordTime.timestamp(millis: latest.millis, offset: latest.offset)
        }
        return header
    }

    /// What a read found besides the objects.
    public struct Summary: Sendable {
        /// The header delivered first (`header()`).
        public var header = ExportHeader()
        /// Objects delivered.
        public var objectCount = 0
        /// Records by table (a series or session with its children counts once).
        public var records: [String: Int] = [:]
    }

    /// Streams the header, then every record of the tables read, table by table in `row_id`
    /// order, to `sink`.
    ///
    /// - Parameter types: when given, tables whose type is not among them are not read.
    /// - Throws: `HealthConnectError` for a row that cannot be read (located), or the sink's own
    ///   error unchanged.
    public func read(into sink: any ObjectSink, types: Set<String>? = nil) throws -> Summary {
        var summary = Summary()
        summary.header = try header()
        try sink.exportDidBegin(summary.header)
        for table in tables where types == nil || !types!.isDisjoint(with: table.producedTypes) {
            let reader = TableReader(
                table: table, children: children[table.name] ?? [], database: database, provenance: provenance, limits: limits)
            let count = try reader.read { object in
                summary.objectCount += 1
                try sink.consume(object)
            }
            summary.records[table.name] = count
        }
        return summary
    }
}

extension RecordTable.Layout {
    var isInstant: Bool {
        switch self {
        case .instant, .bloodPressure: return true
        case .cycleTracking(let record): return record.isInstant
        default: return false
        }
    }
}
