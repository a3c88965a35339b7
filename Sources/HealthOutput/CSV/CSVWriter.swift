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
            guard let rows = chunk.buffers[table], let out = try buffer(for: table) else { continue }
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
        if manager.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw OutputError(.cannotCreate, "exists and is not a folder", path: folder)
            }
        } else {
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw OutputError(.cannotCreate, "cannot create the folder", path: folder)
            }
        }
        destination = .folder(try StagingFolder(in: folder))
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

    private func buffer(for table: CSVTable) throws -> OutputBuffer? {
        if let encodingBuffer {
            guard table.isMainTable else { return nil }
            if let current = stdoutTable, current != table {
                throw OutputError(
                    .invalidRequest,
                    "sorted CSV holds one table, and the selection has several (\(current.fileStem), \(table.fileStem)); select one type with --type")
            }
            if stdoutTable == nil, case .standardOutput(let out) = destination {
                stdoutTable = table
                buffers[table] = out
                writeHeader(table, to: out)
            }
            return encodingBuffer
        }
        if let existing = buffers[table] { return existing }
        switch destination {
        case .chunk:
            let out = OutputBuffer(descriptor: -1, capacity: 64 * 1024)
            buffers[table] = out
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
            writeHeader(table, to: out)
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
            writeHeader(table, to: out)
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

    private func writeHeader(_ table: CSVTable, to out: OutputBuffer) {
        var row = CSVRow(out, scratch: scratch)
        for column in table.columns { row.string(column) }
        row.end()
    }

    private func row(_ table: CSVTable, _ body: (inout CSVRow) -> Void) throws {
        guard let out = try buffer(for: table) else { return }
        var row = CSVRow(out, scratch: scratch)
        body(&row)
        row.end()
        try out.endRecord()
    }

    // MARK: ObjectWriter

    /// A deleted object's row in `deleted.csv` (anchored changes).
    public func writeDeleted(_ uuid: ObjectUUID, type: String) throws {
        try row(.deletedObjects) { row in
            row.uuid(uuid)
            row.string(type)
        }
    }

    public func begin(_ header: ExportHeader) throws {
        guard case .folder = destination else { return }
        try row(.export) { row in
            row.int(HealthOutputFormat.version)
            row.string(header.locale)
            row.date(header.exportDate)
            row.int(header.exportVersion)
            let me = header.characteristics
            row.string(me?.dateOfBirth)
            row.string(me?.biologicalSex)
            row.string(me?.bloodType)
            row.string(me?.fitzpatrickSkinType)
            row.string(me?.cardioFitnessMedicationsUse)
            if let other = me?.other, !other.isEmpty {
                row.json { json in
                    json.beginObject()
                    for attribute in other {
                        json.key(string: attribute.name)
                        json.string(attribute.value)
                    }
                    json.endObject()
                }
            } else {
                row.empty()
            }
        }
    }

    public func write(_ object: HealthObject) throws {
        switch object {
        case .quantitySample(let q): try write(q)
        case .categorySample(let c): try write(c)
        case .correlation(let c):
            try row(.correlations) { row in
                sampleHead(c.sample, &row)
                row.string(c.objects.map(\.sample.uuid.uuidString).joined(separator: " "))
                provenance(c.sample, &row)
                tail(c.sample, &row)
            }
        case .workout(let w): try write(w)
        case .activitySummary(let a):
            try row(.activitySummaries) { row in
                row.uuid(a.uuid)
                row.string(a.dateComponents?.text)
                row.number(a.activeEnergyBurned)
                row.number(a.activeEnergyBurnedGoal)
                row.string(a.activeEnergyBurnedUnit)
                row.number(a.appleMoveTime)
                row.number(a.appleMoveTimeGoal)
                row.number(a.appleExerciseTime)
                row.number(a.appleExerciseTimeGoal)
                row.number(a.appleStandHours)
                row.number(a.appleStandHoursGoal)
                extensions(a.extensions, &row)
            }
        case .clinicalRecord(let c):
            try row(.clinicalRecords) { row in
                row.uuid(c.uuid)
                row.string(c.clinicalType.identifier)
                row.date(c.receivedDate)
                row.string(c.sourceName)
                row.string(c.fhirResourceType)
                row.string(c.identifier)
                row.string(c.sourceURL)
                row.string(c.fhirVersion)
                row.string(c.resourceFilePath)
                extensions(c.extensions, &row)
            }
        case .audiogram(let a):
            try row(.audiograms) { row in
                sampleHead(a.sample, &row)
                provenance(a.sample, &row)
                tail(a.sample, &row)
            }
            for p in a.sensitivityPoints {
                try row(.audiogramSensitivityPoints) { row in
                    row.uuid(a.sample.uuid)
                    row.number(p.frequency?.value)
                    row.string(p.frequency?.unit)
                    row.number(p.leftEarSensitivity?.value)
                    row.string(p.leftEarSensitivity?.unit)
                    row.number(p.rightEarSensitivity?.value)
                    row.string(p.rightEarSensitivity?.unit)
                    row.string(p.leftEarMasked)
                    row.string(p.rightEarMasked)
                    row.number(p.leftEarClampingRangeLowerBound)
                    row.number(p.leftEarClampingRangeUpperBound)
                    row.number(p.rightEarClampingRangeLowerBound)
                    row.number(p.rightEarClampingRangeUpperBound)
                }
            }
        case .visionPrescription(let v):
            try row(.visionPrescriptions) { row in
                row.uuid(v.uuid)
                row.string(v.sampleType.identifier)
                row.string(v.prescriptionType)
                row.date(v.dateIssued)
                row.date(v.expirationDate)
                row.string(v.brand)
                for eye in [v.rightEye, v.leftEye] {
                    for field in LensSpecification.fields {
                        let value = eye?[attribute: field.attribute]
                        row.number(value?.value)
                        row.string(value?.unit)
                    }
                }
                row.string(v.attachments.isEmpty ? nil : v.attachments.joined(separator: " "))
                metadata(v.metadata, &row)
                extensions(v.extensions, &row)
            }
        case .electrocardiogram:
            // ECGs come from their CSV files, never from export.xml, and `healthport ecg`
            // writes them as JSON only (a voltage array has no flat row).
            break
        case .unknown(let u):
            try row(.unknownElements) { row in
                row.uuid(u.uuid)
                row.json { JSONObjectEncoder.write(u.element, to: &$0) }
            }
        }
    }

    private func write(_ q: QuantitySample) throws {
        try row(.quantitySamples(typeIdentifier: q.sample.sampleType.identifier)) { row in
            sampleHead(q.sample, &row)
            row.number(q.quantity.value)
            row.string(q.quantity.unit)
            row.int(q.count)
            provenance(q.sample, &row)
            tail(q.sample, &row)
        }
        for beat in q.instantaneousBeatsPerMinute {
            try row(.instantaneousBeatsPerMinute) { row in
                row.uuid(q.sample.uuid)
                row.number(beat.bpm)
                row.string(beat.time)
                row.date(beat.date)
            }
        }
    }

    private func write(_ c: CategorySample) throws {
        try row(.categorySamples(typeIdentifier: c.sample.sampleType.identifier)) { row in
            sampleHead(c.sample, &row)
            row.int(c.value.rawValue)
            row.string(c.value.name)
            provenance(c.sample, &row)
            tail(c.sample, &row)
        }
    }

    private func write(_ w: Workout) throws {
        try row(.workouts) { row in
            sampleHead(w.sample, &row)
            row.string(w.workoutActivityType.name)
            for quantity in [w.duration, w.totalDistance, w.totalEnergyBurned] {
                row.number(quantity?.value)
                row.string(quantity?.unit)
            }
            provenance(w.sample, &row)
            tail(w.sample, &row)
        }
        // Parts tables only go to folders (and to the chunks that become one).
        if case .standardOutput = destination { return }
        func events(_ list: [WorkoutEvent], activity: String?) throws {
            for event in list {
                try row(.workoutEvents) { row in
                    row.uuid(w.sample.uuid)
                    row.string(activity)
                    row.string(event.type.name)
                    row.date(event.date)
                    row.number(event.duration?.value)
                    row.string(event.duration?.unit)
                    metadata(event.metadata, &row)
                }
            }
        }
        func statistics(_ list: [WorkoutStatistics], activity: String?) throws {
            for s in list {
                try row(.workoutStatistics) { row in
                    row.uuid(w.sample.uuid)
                    row.string(activity)
                    row.string(s.quantityType.identifier)
                    row.date(s.startDate)
                    row.date(s.endDate)
                    row.number(s.sum)
                    row.number(s.average)
                    row.number(s.minimum)
                    row.number(s.maximum)
                    row.string(s.unit)
                }
            }
        }
        try events(w.workoutEvents, activity: nil)
        try statistics(w.statistics, activity: nil)
        for activity in w.workoutActivities {
            try row(.workoutActivities) { row in
                row.uuid(w.sample.uuid)
                row.string(activity.uuid)
                row.date(activity.startDate)
                row.date(activity.endDate)
                row.number(activity.duration?.value)
                row.string(activity.duration?.unit)
                metadata(activity.metadata, &row)
            }
            try events(activity.workoutEvents, activity: activity.uuid)
            try statistics(activity.statistics, activity: activity.uuid)
        }
        for route in w.routes {
            try row(.workoutRoutes) { row in
                row.uuid(w.sample.uuid)
                row.uuid(route.sample.uuid)
                row.date(route.sample.startDate)
                row.date(route.sample.endDate)
                row.string(route.fileReference)
                provenance(route.sample, &row)
                metadata(route.sample.metadata, &row)
            }
            for location in route.locations {
                try row(.workoutRouteLocations) { row in
                    row.uuid(route.sample.uuid)
                    row.date(location.date)
                    row.number(location.latitude)
                    row.number(location.longitude)
                    row.number(location.altitude)
                    row.number(location.horizontalAccuracy)
                    row.number(location.verticalAccuracy)
                    row.number(location.course)
                    row.number(location.speed)
                }
            }
        }
    }

    private func sampleHead(_ s: SampleAttributes, _ row: inout CSVRow) {
        row.uuid(s.uuid)
        row.string(s.sampleType.identifier)
        row.date(s.startDate)
        row.date(s.endDate)
    }

    private func provenance(_ s: SampleAttributes, _ row: inout CSVRow) {
        row.string(s.sourceRevision.source.name)
        row.string(s.sourceRevision.version)
        let d = s.device
        row.string(d?.name)
        row.string(d?.manufacturer)
        row.string(d?.model)
        row.string(d?.hardwareVersion)
        row.string(d?.firmwareVersion)
        row.string(d?.softwareVersion)
        row.string(d?.localIdentifier)
        row.string(d?.udiDeviceIdentifier)
        row.string(d?.unparsedDescription)
        row.date(s.creationDate)
    }

    private func tail(_ s: SampleAttributes, _ row: inout CSVRow) {
        metadata(s.metadata, &row)
        extensions(s.extensions, &row)
    }

    private func metadata(_ m: Metadata, _ row: inout CSVRow) {
        if m.isEmpty {
            row.empty()
            return
        }
        row.json { json in
            JSONObjectEncoder.writeMetadata(m, to: &json)
        }
    }

    private func extensions(_ e: Extensions, _ row: inout CSVRow) {
        if e.isEmpty {
            row.empty()
            return
        }
        row.json { json in
            JSONObjectEncoder.writeExtensions(e, to: &json)
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

    /// While encoding for sorting, main-table rows go to this buffer instead of their table.
    private var encodingBuffer: OutputBuffer? = nil

    /// One object's main-table row. Sorting needs a single table: a second main table is an
    /// `OutputError.invalidRequest`, and parts tables are not written.
    public func encode(_ object: HealthObject) throws -> [UInt8] {
        let buffer = OutputBuffer(descriptor: -1, capacity: 4096)
        encodingBuffer = buffer
        defer { encodingBuffer = nil }
        try write(object)
        return buffer.takeBytes()
    }

    public func writeEncoded(_ record: [UInt8]) throws {
        guard case .standardOutput(let out) = destination else {
            throw OutputError(.invalidRequest, "sorted CSV is one table: write it to standard output or a file")
        }
        out.append(contentsOf: record)
        try out.endRecord()
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
