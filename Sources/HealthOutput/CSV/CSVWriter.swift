import Foundation
import HealthJSON
import HealthModel

/// CSV: one table per sample type (`StepCount.csv`, …) plus tables for workouts and their
/// parts, correlations, activity summaries, clinical records, audiograms, vision prescriptions
/// and the export itself, in a folder; or a single main table on standard output.
///
/// In a folder, every table is written into a private staging folder inside it and moved into
/// place only when the whole export has been read: a failed run leaves the folder as it was.
public final class CSVWriter: ObjectWriter, TableSink {
    private enum Destination {
        case standardOutput(OutputBuffer)
        case folder(StagingFolder)
        /// One chunk of a parallel read: rows in memory, per table, without headers.
        case chunk
    }

    private let destination: Destination
    private var buffers: [OutputTable: OutputBuffer] = [:]
    private var fileNames: [OutputTable: String] = [:]
    private var fileNamer = TableFileNames()
    private var order: [OutputTable] = []
    private var stdoutTable: OutputTable? = nil
    /// Each table's header row, made from its first row's column names (a chunk keeps them for
    /// the writer it is appended to).
    private var headers: [OutputTable: [UInt8]] = [:]
    private let scratch = OutputBuffer(descriptor: -1, capacity: 4096)
    private var finished = false

    /// Writes the one main table the data holds to standard output (`buffer`); a second main
    /// table is an `OutputError.invalidRequest`. Parts tables (workout events, beats, …) are
    /// only written to a folder.
    /// A writer for one chunk of a parallel read into a folder: rows go to memory, for
    /// `append(_:)`.
    public static func forChunk() -> CSVWriter { CSVWriter() }

    private init() {
        destination = .chunk
        file = nil
    }

    /// Writes what a chunk's writer collected into this folder writer, table by table in the
    /// order the chunk met them (so files are created, and named, as a sequential run would).
    public func append(_ chunk: CSVWriter) throws {
        for table in chunk.order {
            guard let rows = chunk.buffers[table], let out = try buffer(for: table, header: { chunk.headers[table] ?? [] }) else { continue }
            try out.appendRecords(rows.buffered)
        }
    }

    public init(standardOutput buffer: OutputBuffer) {
        destination = .standardOutput(buffer)
        file = nil
    }

    /// Writes the one main table to a file, atomically (as on standard output).
    public init(file: AtomicFile) {
        destination = .standardOutput(file.buffer)
        self.file = file
    }

    private let file: AtomicFile?

    /// Samples' local times beside their instants (`LocalTimes`): the `localStartDate`,
    /// `localEndDate` and `timeZone` columns; `nil`: no such columns.
    public var localTimes: LocalTimes?

    /// Begin each table with UTF-8's byte-order mark (EF BB BF), so that a spreadsheet that
    /// guesses the encoding (Excel opens a CSV as the system's code page otherwise) keeps
    /// accented source names intact. Off by default: Python, R and DuckDB need none.
    public var byteOrderMark = false
    private static let byteOrderMarkBytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Writes every table into `folder`, creating it if needed.
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public init(folder: String) throws {
        destination = .folder(try StagingFolder.forFolderOutput(folder))
        file = nil
    }

    deinit {
        if !finished { abandon() }
    }

    /// The file names written, in creation order (after `finish`).
    /// Whether this writer writes a folder of tables (not standard output or one file).
    public var writesFolder: Bool {
        if case .folder = destination { return true }
        return false
    }

    var holdsPartTables: Bool {
        if case .standardOutput = destination { return false }
        return true
    }

    public var writtenFiles: [String] { order.compactMap { fileNames[$0] } }

    // MARK: Tables

    /// The buffer `table`'s rows go to, made (with its header row, from `header`) on first use;
    /// `nil` when the destination does not hold the table.
    private func buffer(for table: OutputTable, header: () -> [UInt8]) throws -> OutputBuffer? {
        if let existing = buffers[table] { return existing }
        switch destination {
        case .chunk:
            let out = OutputBuffer(descriptor: -1, capacity: 64 * 1024)
            buffers[table] = out
            headers[table] = header()
            order.append(table)
            return out
        case .standardOutput(let out):
            guard table.isMainTable else { return nil }
            if let current = stdoutTable, current != table {
                throw OutputError(
                    .invalidRequest,
                    "CSV on standard output holds one table, and the selection has several (\(current.fileStem), \(table.fileStem)); select one type with \(argument: .types, neutral: "a type filter"), or write a folder with \(argument: .output, "DIR")",
                    argument: .output)
            }
            stdoutTable = table
            buffers[table] = out
            if byteOrderMark { out.append(contentsOf: Self.byteOrderMarkBytes) }
            out.append(contentsOf: header())
            return out
        case .folder(let staging):
            let name = fileNamer.name(for: table, fileExtension: "csv")
            let out = try staging.create(name)
            buffers[table] = out
            fileNames[table] = name
            order.append(table)
            if byteOrderMark { out.append(contentsOf: Self.byteOrderMarkBytes) }
            out.append(contentsOf: header())
            return out
        }
    }

    /// One row of `table`, written by `body` (a `TableRows` function); the table's header row
    /// comes from the same function's column names.
    func row(_ table: OutputTable, _ body: (inout CSVRow) -> Void) throws {
        guard let out = try buffer(for: table, header: { headerRow(body) }) else { return }
        var row = CSVRow(out, scratch: scratch)
        body(&row)
        row.end()
        try out.endRecord()
    }

    /// Makes `table` with its header row and no row: a table with nothing in it still names
    /// its columns (an empty summary's CSV is a header a spreadsheet or pandas reads, not an
    /// empty file). `body` writes any row of the table; only its column names are kept.
    func emptyTable(_ table: OutputTable, _ body: (inout CSVRow) -> Void) throws {
        _ = try buffer(for: table, header: { headerRow(body) })
    }

    private func headerRow(_ body: (inout CSVRow) -> Void) -> [UInt8] {
        let out = OutputBuffer(descriptor: -1, capacity: 1024)
        var row = CSVRow(out, scratch: scratch, writesColumnNames: true)
        body(&row)
        row.end()
        return out.takeBytes()
    }

    // MARK: ObjectWriter

    /// A deleted object's row in `deleted.csv` (anchored changes).
    public func writeDeleted(_ uuid: ObjectUUID, type: String) throws {
        try TableRouting.writeDeleted(uuid, type: type, to: self)
    }

    public func begin(_ header: ExportHeader) throws {
        try TableRouting.begin(header, to: self, holdsExportTable: writesFolder)
    }

    public func write(_ object: HealthObject) throws {
        try TableRouting.write(object, to: self)
    }

    public func finish() throws {
        switch destination {
        case .standardOutput(let out):
            finished = true
            if let file { try file.commit() } else { try out.flush() }
        case .folder(let staging):
            finished = true
            try staging.publish()
        case .chunk:
            finished = true
        }
    }

    public func abandon() {
        guard !finished else { return }
        finished = true
        switch destination {
        case .standardOutput(let out):
            out.discard()
            file?.abandon()
        case .folder(let staging):
            staging.abandon()
        case .chunk:
            buffers.removeAll()
        }
    }
}
