import Foundation
import HealthModel

/// CSV: one table per sample type (`StepCount.csv`, …) plus tables for workouts and their
/// parts, correlations, activity summaries, clinical records, audiograms, vision prescriptions
/// and the export itself, in a folder; or a single main table on standard output.
///
/// In a folder, every table is written into a private staging folder inside it and moved into
/// place only when the whole export has been read: a failed run leaves the folder as it was.
public final class CSVWriter: ObjectWriter {
    private enum Destination {
        case standardOutput(OutputBuffer)
        case folder(StagingFolder)
        /// One chunk of a parallel read: rows in memory, per table, without headers.
        case chunk
    }

    private let destination: Destination
    private var buffers: [CSVTable: OutputBuffer] = [:]
    private var fileNames: [CSVTable: String] = [:]
    private var usedStems: [String: CSVTable] = [:]
    private var order: [CSVTable] = []
    private var stdoutTable: CSVTable? = nil
    /// Each table's header row, made from its first row's column names (a chunk keeps them for
    /// the writer it is appended to).
    private var headers: [CSVTable: [UInt8]] = [:]
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

    /// Writes every table into `folder`, creating it if needed.
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public init(folder: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        var created = false
        if manager.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw OutputError(.cannotCreate, "exists and is not a folder", path: folder)
            }
        } else {
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                created = true
            } catch {
                throw OutputError(.cannotCreate, "cannot create the folder", path: folder)
            }
        }
        destination = .folder(try StagingFolder(in: folder, createdDestination: created))
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

    public var writtenFiles: [String] { order.compactMap { fileNames[$0] } }

    // MARK: Tables

    /// The buffer `table`'s rows go to, made (with its header row, from `header`) on first use;
    /// `nil` when the destination does not hold the table.
    private func buffer(for table: CSVTable, header: () -> [UInt8]) throws -> OutputBuffer? {
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
                    "CSV on standard output holds one table, and the selection has several (\(current.fileStem), \(table.fileStem)); select one type with --type, or write a folder with --output DIR")
            }
            stdoutTable = table
            buffers[table] = out
            out.append(contentsOf: header())
            return out
        case .folder(let staging):
            var stem = table.fileStem
            switch table {
            case .quantitySamples(let type), .categorySamples(let type):
                let short = TypeCatalogue.shortName(of: type)
                stem = Self.safeFileStem(usedStems[short] == nil ? short : type)
            default:
                break
            }
            usedStems[stem] = table
            let name = stem + ".csv"
            let out = try staging.create(name)
            buffers[table] = out
            fileNames[table] = name
            order.append(table)
            out.append(contentsOf: header())
            return out
        }
    }

    /// A type identifier as a file name: no path separators, no leading dot.
    static func safeFileStem(_ stem: String) -> String {
        var result = String(stem.map { $0 == "/" || $0 == "\\" || $0 == "\0" ? "_" : $0 })
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        if result.isEmpty { result = "_" }
        return String(result.prefix(200))
    }

    /// One row of `table`, written by `body` (a `TableRows` function); the table's header row
    /// comes from the same function's column names.
    private func row(_ table: CSVTable, _ body: (inout CSVRow) -> Void) throws {
        guard let out = try buffer(for: table, header: { headerRow(body) }) else { return }
        var row = CSVRow(out, scratch: scratch)
        body(&row)
        row.end()
        try out.endRecord()
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
        try row(.deletedObjects) { TableRows.deletedObject(uuid, type: type, into: &$0) }
    }

    public func begin(_ header: ExportHeader) throws {
        guard case .folder = destination else { return }
        try row(.export) { TableRows.export(header, into: &$0) }
    }

    public func write(_ object: HealthObject) throws {
        switch object {
        case .quantitySample(let q):
            try row(.quantitySamples(typeIdentifier: q.sample.sampleType.identifier)) { TableRows.quantitySample(q, into: &$0) }
            for beat in q.instantaneousBeatsPerMinute {
                try row(.instantaneousBeatsPerMinute) { TableRows.beat(beat, of: q.sample.uuid, into: &$0) }
            }
        case .categorySample(let c):
            try row(.categorySamples(typeIdentifier: c.sample.sampleType.identifier)) { TableRows.categorySample(c, into: &$0) }
        case .correlation(let c):
            try row(.correlations) { TableRows.correlation(c, into: &$0) }
        case .workout(let w):
            try write(w)
        case .activitySummary(let a):
            try row(.activitySummaries) { TableRows.activitySummary(a, into: &$0) }
        case .clinicalRecord(let c):
            try row(.clinicalRecords) { TableRows.clinicalRecord(c, into: &$0) }
        case .audiogram(let a):
            try row(.audiograms) { TableRows.audiogram(a, into: &$0) }
            for point in a.sensitivityPoints {
                try row(.audiogramSensitivityPoints) { TableRows.sensitivityPoint(point, of: a.sample.uuid, into: &$0) }
            }
        case .visionPrescription(let v):
            try row(.visionPrescriptions) { TableRows.visionPrescription(v, into: &$0) }
        case .electrocardiogram:
            // ECGs come from their CSV files, never from export.xml, and `healthport ecg`
            // writes them as JSON only (a voltage array has no flat row).
            break
        case .unknown(let u):
            try row(.unknownElements) { TableRows.unknownElement(u, into: &$0) }
        }
    }

    private func write(_ w: Workout) throws {
        try row(.workouts) { TableRows.workout(w, into: &$0) }
        // Parts tables only go to folders (and to the chunks that become one).
        if case .standardOutput = destination { return }
        let workout = w.sample.uuid
        func parts(of activity: WorkoutActivity?) throws {
            for event in activity?.workoutEvents ?? w.workoutEvents {
                try row(.workoutEvents) { TableRows.workoutEvent(event, of: workout, activity: activity?.uuid, into: &$0) }
            }
            for statistics in activity?.statistics ?? w.statistics {
                try row(.workoutStatistics) { TableRows.workoutStatistics(statistics, of: workout, activity: activity?.uuid, into: &$0) }
            }
        }
        try parts(of: nil)
        for activity in w.workoutActivities {
            try row(.workoutActivities) { TableRows.workoutActivity(activity, of: workout, into: &$0) }
            try parts(of: activity)
        }
        for route in w.routes {
            try row(.workoutRoutes) { TableRows.workoutRoute(route, of: workout, into: &$0) }
            for location in route.locations {
                try row(.workoutRouteLocations) { TableRows.routeLocation(location, of: route.sample.uuid, into: &$0) }
            }
        }
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
