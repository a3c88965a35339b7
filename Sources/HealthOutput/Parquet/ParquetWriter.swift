import Foundation
import HealthJSON
import HealthModel

/// Parquet: the CSV folder's tables, typed (`healthport-formats(5)`, PARQUET), one file per
/// table in a folder, or one main table in a single `.parquet` file.
///
/// Rows are collected per table into row groups, flushed when a table's row group reaches
/// `ParquetOptions.rowGroupRows` or all tables together pass `memoryBudget` (the largest table
/// is flushed first): memory stays bounded whatever the export's size, and as Apple writes one
/// type at a time, a type's rows mostly end up in few, large row groups. Files are written in a
/// staging folder (or as an `AtomicFile`) and appear complete or not at all, mode 0600.
public final class ParquetWriter: ObjectWriter, TableSink {
    private enum Destination {
        case folder(StagingFolder)
        case file(AtomicFile)
    }

    private let destination: Destination
    private let options: ParquetOptions
    private let compressor: ParquetPageCompressor
    private var tables: [OutputTable: ParquetTableBuffer] = [:]
    private var order: [OutputTable] = []
    private var fileNames: [OutputTable: String] = [:]
    private var fileNamer = TableFileNames()
    private var singleTable: OutputTable? = nil
    private var rowsSinceBudgetCheck = 0
    private var finished = false

    /// Writes every table into `folder`, creating it if needed.
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public init(folder: String, options: ParquetOptions = ParquetOptions()) throws {
        destination = .folder(try StagingFolder.forFolderOutput(folder))
        self.options = options
        compressor = ParquetPageCompressor(options.compression)
    }

    /// Writes the one main table the data holds into `file`; a second main table is an
    /// `OutputError.invalidRequest`, and the parts tables (workout events, beats, …) are left
    /// out, as CSV does on standard output.
    public init(file: AtomicFile, options: ParquetOptions = ParquetOptions()) {
        destination = .file(file)
        self.options = options
        compressor = ParquetPageCompressor(options.compression)
    }

    deinit {
        if !finished { abandon() }
    }

    /// Whether `path` names one table's file (`X.parquet`) rather than a folder of tables.
    public static func isSingleFile(_ path: String) -> Bool { path.lowercased().hasSuffix(".parquet") }

    /// Why Parquet is never written to standard output.
    public static let notOnStandardOutput: DiagnosticText =
        "Parquet is written to files (its footer comes last, and readers seek): use \(argument: .output, "DIR", neutral: "a folder"), or \(argument: .output, "FILE.parquet", neutral: "a .parquet file") for one table"

    /// The file names written, in creation order (folder output).
    public var writtenFiles: [String] { order.compactMap { fileNames[$0] } }

    /// Rows written to each file (folder output), by file name: a batch's manifest records them.
    public var rowCounts: [String: Int64] {
        var counts: [String: Int64] = [:]
        for (table, buffer) in tables { if let name = fileNames[table] { counts[name] = buffer.file.rowCount } }
        return counts
    }

    /// Samples' local times beside their instants (`LocalTimes`): the `localStartDate`,
    /// `localEndDate` (local `TIMESTAMP`s) and `timeZone` columns; `nil`: no such columns.
    public var localTimes: LocalTimes?

    var holdsPartTables: Bool {
        if case .folder = destination { return true }
        return false
    }

    // MARK: Tables

    private func table(_ table: OutputTable) throws -> ParquetTableBuffer? {
        if let existing = tables[table] { return existing }
        let out: OutputBuffer
        switch destination {
        case .folder(let staging):
            let name = fileNamer.name(for: table, fileExtension: "parquet")
            out = try staging.create(name)
            fileNames[table] = name
        case .file(let file):
            guard table.isMainTable else { return nil }
            if let current = singleTable, current != table {
                throw OutputError(
                    .invalidRequest,
                    "a .parquet file holds one table, and the selection has several (\(current.fileStem), \(table.fileStem)); select one type with \(argument: .types, neutral: "a type filter"), or write a folder with \(argument: .output, "DIR")",
                    argument: .output)
            }
            singleTable = table
            out = file.buffer
        }
        let buffer = ParquetTableBuffer(file: ParquetFileWriter(out: out, compressor: compressor))
        tables[table] = buffer
        order.append(table)
        return buffer
    }

    func row(_ table: OutputTable, _ body: (inout ParquetRow) -> Void) throws {
        guard let buffer = try self.table(table) else { return }
        var row = ParquetRow(buffer)
        body(&row)
        buffer.endRow()
        if buffer.rowCount >= options.rowGroupRows { try buffer.flushRowGroup() }
        rowsSinceBudgetCheck += 1
        if rowsSinceBudgetCheck >= 4096 {
            rowsSinceBudgetCheck = 0
            try keepWithinBudget()
        }
    }

    /// Makes `table` with its columns and no row, when no row came: an empty summary is a
    /// table of the right shape that engines read as no rows, not a file without columns.
    /// `body` writes any row of the table; only its columns are kept.
    func emptyTable(_ table: OutputTable, _ body: (inout ParquetRow) -> Void) throws {
        guard let buffer = try self.table(table), buffer.columns.isEmpty else { return }
        buffer.declaresColumnsOnly = true
        defer { buffer.declaresColumnsOnly = false }
        var row = ParquetRow(buffer)
        body(&row)
        buffer.endRow()
    }

    /// Flushes the largest row groups until the tables together hold less than the budget.
    private func keepWithinBudget() throws {
        var sizes = tables.values.map { ($0, $0.memoryBytes) }
        var total = sizes.reduce(0) { $0 + $1.1 }
        while total > options.memoryBudget, let largest = sizes.indices.max(by: { sizes[$0].1 < sizes[$1].1 }) {
            try sizes[largest].0.flushRowGroup()
            total -= sizes[largest].1
            sizes.remove(at: largest)
        }
    }

    // MARK: ObjectWriter

    /// A deleted object's row in `deleted.parquet` (anchored changes).
    public func writeDeleted(_ uuid: ObjectUUID, type: String) throws {
        try TableRouting.writeDeleted(uuid, type: type, to: self)
    }

    public func begin(_ header: ExportHeader) throws {
        try TableRouting.begin(header, to: self, holdsExportTable: holdsPartTables)
    }

    public func write(_ object: HealthObject) throws {
        try TableRouting.write(object, to: self)
    }

    public func finish() throws {
        guard !finished else { return }
        do {
            for table in order { try tables[table]?.finish() }
            switch destination {
            case .folder(let staging):
                try staging.publish()
            case .file(let file):
                // Nothing selected: still a Parquet file, so a reader opens it (as no rows),
                // with the selected type's columns where they are known.
                if singleTable == nil { try writeEmptyFile(to: file.buffer) }
                try file.commit()
            }
            finished = true
        } catch {
            abandon()
            throw error
        }
    }

    public func abandon() {
        guard !finished else { return }
        finished = true
        switch destination {
        case .folder(let staging): staging.abandon()
        case .file(let file):
            file.buffer.discard()
            file.abandon()
        }
    }

    /// The one type a single file holds (`--type`): when nothing is selected, the file still
    /// has that type's columns, so engines read it as an empty table of the right shape.
    public var selectedType: String? = nil

    /// A file with no rows (an empty selection): the selected quantity or category type's
    /// columns, declared by its table's row function over a placeholder sample; for other types
    /// a file with no columns (which pyarrow reads and DuckDB refuses).
    private func writeEmptyFile(to out: OutputBuffer) throws {
        let buffer = ParquetTableBuffer(file: ParquetFileWriter(out: out, compressor: compressor))
        if let type = selectedType.map(ObjectType.init(recordType:)) {
            let instant = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0)
            let sample = SampleAttributes(
                sampleType: type, sourceRevision: SourceRevision(source: Source(name: "")), startDate: instant, endDate: instant)
            buffer.declaresColumnsOnly = true
            var row = ParquetRow(buffer)
            // The local-time columns where the rows would have them.
            let local: LocalColumns = localTimes == nil ? .absent : .present(nil)
            switch type.kind {
            case .quantity:
                TableRows.quantitySample(
                    QuantitySample(sample: sample, quantity: Quantity(value: ExportNumber(0), unit: "")), local: local, into: &row)
            case .category:
                TableRows.categorySample(CategorySample(sample: sample, value: CategoryValue(rawValue: 0, name: nil)), local: local, into: &row)
            default:
                break
            }
        }
        try buffer.finish()
    }
}

/// How Parquet files are written.
public struct ParquetOptions: Sendable, Equatable {
    /// The page codec (`--compression`).
    public var compression: ParquetCompression
    /// The most rows a row group holds (`HEALTHPORT_PARQUET_ROW_GROUP_ROWS`).
    public var rowGroupRows: Int
    /// What the row groups being collected may hold in memory, all tables together.
    public var memoryBudget: Int

    public static let defaultRowGroupRows = 1 << 20
    public static let defaultMemoryBudget = 16 << 20

    public init(
        compression: ParquetCompression = .zstd, rowGroupRows: Int = ParquetOptions.defaultRowGroupRows,
        memoryBudget: Int = ParquetOptions.defaultMemoryBudget
    ) {
        self.compression = compression
        self.rowGroupRows = max(1, rowGroupRows)
        self.memoryBudget = memoryBudget
    }

}
