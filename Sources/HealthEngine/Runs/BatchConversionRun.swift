import Foundation
import HealthDeidentify
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery

/// A conversion of many exports into partitioned output (`convert --partition`): each export
/// converted on its own worker (`jobs` at a time) into a private staging folder, then published
/// into its partitions file by file (each renamed into place complete) and recorded in the
/// manifest. One bad export is reported (a `RunNote`) and does not stop the others.
///
/// Workers share only immutable values, the locked `BatchState` and `Counter`, and the
/// reporter.
public struct BatchConversionRun: Sendable {
    public var inputs: [String]
    /// One person key per input (`personKeys(for:mapping:)`).
    public var persons: [String]
    public var layout: PartitionLayout
    /// CSV, Parquet, NDJSON or FHIR.
    public var format: ObjectFormat
    /// How Parquet files are written.
    public var parquet = ParquetOptions()
    /// The folder the partitions and the manifest go into.
    public var root: String
    public var jobs: Int
    /// Skip inputs the manifest records as complete (and unchanged).
    public var resume = false
    public var query: ObjectQuery
    public var includeRoutes = false
    /// How each export is read (the parser, a FIFO's wait, a zip's expansion): the face's
    /// options. Each export is read on one thread; `jobs` exports at a time.
    public var reading = ReadOptions()
    /// Recorded in the manifest.
    public var healthportVersion: String
    /// Also write each person's summary tables (`daily-summary`, `sleep-nights`), published as
    /// tables of their own (`type=daily-summary`); CSV or Parquet. In a FHIR lake, the days and
    /// nights as Observations in the person's `type=Observation`. (The `coverage` table is in
    /// every CSV and Parquet lake.)
    public var summaries: SummarySettings?
    /// The person's zone, for the local times samples that name none are given in (`--tz`);
    /// `nil`: decided for each export as every summary decides it (`PersonZone`).
    public var timeZone: TimeZone?
    /// Whether `persons` were taken from the inputs' file names (no `--person-id` mapping).
    /// De-identified (`query.deidentification`), such keys are replaced by keyed pseudonyms in
    /// the lake (a file name is often a name); keys from a mapping are the study's own and kept.
    /// Either way a person's date shift is derived from the key as given.
    public var personKeysFromFileNames = true

    public init(
        inputs: [String], persons: [String], layout: PartitionLayout, format: ObjectFormat, root: String, jobs: Int,
        query: ObjectQuery = ObjectQuery(), healthportVersion: String
    ) {
        self.inputs = inputs
        self.persons = persons
        self.layout = layout
        self.format = format
        self.root = root
        self.jobs = jobs
        self.query = query
        self.healthportVersion = healthportVersion
    }

    /// The person keys the lake shows: pseudonyms of keys taken from file names when
    /// de-identifying (`personKeysFromFileNames`), else the keys as given.
    var shownPersons: [String] {
        guard let deidentification = query.deidentification, personKeysFromFileNames else { return persons }
        let pseudonyms = Pseudonyms(key: deidentification.key)
        return persons.map { pseudonyms.pseudonym($0, as: .person) }
    }

    /// FHIR's files are NDJSON, one resource type each.
    var fileExtension: String { format == .fhir ? "ndjson" : format.rawValue }

    /// Runs the batch.
    ///
    /// - Returns: how many inputs failed (each reported as a `RunNote`; see the manifest).
    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Int {
        try RunError.wrapping {
            try OutputInputGuard.check(outputs: [root], inputs: inputs, query: query)
            guard format.isTabular || format == .ndjson || format == .fhir else {
                throw QueryError(.errorInvalidArgument, "\(argument: .partition) writes csv, parquet, ndjson or fhir", argument: .partition)
            }
            if format == .fhir && !layout.splitsByType {
                throw QueryError(
                    .errorInvalidArgument,
                    "FHIR's Bulk Data layout holds one resource type per file: partition by type too (\(argument: .partition, "person,type", neutral: "person,type"))",
                    argument: .partition)
            }
            if format.isTabular && !layout.splitsByType {
                throw QueryError(
                    .errorInvalidArgument,
                    "\(format == .csv ? "CSV" : "Parquet") holds one table per file: partition by type too (\(argument: .partition, "person,type", neutral: "person,type"))",
                    argument: .partition)
            }
            // FHIR's lake holds the days and nights as Observations (`LakeWriter`).
            if summaries != nil && !format.isTabular && format != .fhir {
                throw QueryError(
                    .errorInvalidArgument,
                    "\(argument: .summaries) are tables or FHIR Observations: write csv or parquet to a folder (\(argument: .format, "csv", neutral: "CSV")), or fhir",
                    argument: .summaries)
            }
            try ConversionRun.checkRoutes(includeRoutes, query: query)
            let executor = QueryExecutor(query)
            try executor.validate()
            return try execute(executor: executor, reporter: reporter.restricted(to: executor.disclosure), cancellation: cancellation)
        }
    }

    private func execute(executor: QueryExecutor, reporter: RunReporter, cancellation: RunCancellation?) throws -> Int {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw OutputError(.cannotCreate, "cannot create the folder", path: root)
        }
        // Staging folders of a batch that was killed: never published, safe to remove (one
        // batch writes a folder at a time).
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        where name.hasPrefix(StagingFolder.namePrefix) || name.hasPrefix(".healthport-batch-") {
            try? FileManager.default.removeItem(atPath: root + "/" + name)
        }
        var queryFingerprint = executor.query.identityHash.prefix(16).map { String(format: "%02x", $0) }.joined()
        // A de-identified lake is another conversion than a plain one, or one with another key.
        if let deidentification = query.deidentification { queryFingerprint += "-deidentified-" + deidentification.key.identifier }
        let fresh = BatchManifest(
            healthportVersion: healthportVersion, format: format.rawValue, partition: layout.keys.map(\.rawValue),
            query: queryFingerprint, summaryRules: summaries == nil ? nil : SummaryRules.version)
        var previous = try BatchManifest.load(folder: root)
        if let existing = previous,
            existing.format != fresh.format || existing.partition != fresh.partition || existing.query != fresh.query
                || existing.summaryRules != fresh.summaryRules
        {
            guard !resume else {
                throw OutputError(
                    .invalidRequest,
                    "\(argument: .resume): the folder holds a conversion with another format, partition, filters or summary rules; use a new folder",
                    path: root, argument: .resume)
            }
            previous = nil
        }
        let state = BatchState(manifest: previous ?? fresh, root: root, stamped: query.deidentification == nil)
        let persons = shownPersons
        var pending: [Int] = []
        for index in inputs.indices {
            if resume, let done = state.entry(person: persons[index]), done.isComplete,
                let recorded = recordedInput(index), done.input == recorded.input, done.size == recorded.size,
                done.modified == recorded.modified, done.outputs.allSatisfy({ Self.stillThere($0, root: root) })
            {
                reporter.note(RunNote(.skipped, "\(inputs[index]): already converted (person=\(persons[index])); skipped"))
                continue
            }
            pending.append(index)
        }
        let next = Counter()
        let work = pending
        let workers = max(1, min(jobs, work.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while cancellation?.isCancelled != true, let position = next.take(below: work.count) {
                let index = work[position]
                let entry = convert(index, person: persons[index], executor: executor, reporter: reporter, cancellation: cancellation)
                state.record(entry)
                do {
                    try state.save(folder: root)
                } catch {
                    reporter.note(RunNote(.failed, "cannot write the manifest: \(error)", location: root, failure: RunError(error)))
                }
            }
        }
        // Cancelled: what was published stays published and recorded; the rest is not begun.
        if cancellation?.isCancelled == true { throw CancellationError() }
        try DeidentificationManifestFile.write(
            query: query, format: format, output: root, isFolder: true, healthportVersion: healthportVersion,
            extra: ["partition": layout.keys.map(\.rawValue).joined(separator: ","), "personKeys": personKeysFromFileNames ? "pseudonyms" : "as given"])
        return pending.filter { state.entry(person: persons[$0])?.isComplete != true }.count
    }

    /// Converts one export and publishes its files; never throws: a failure is recorded.
    private func convert(
        _ index: Int, person: String, executor sharedExecutor: QueryExecutor, reporter: RunReporter, cancellation: RunCancellation?
    ) -> BatchManifest.Input {
        let input = inputs[index]
        // De-identified, each person's objects shift by the person's own weeks: a query of their own.
        var executor = sharedExecutor
        if let deidentification = query.deidentification {
            var own = query
            own.deidentification = deidentification.forPerson(self.persons[index])  // the key as given, not its pseudonym
            executor = QueryExecutor(own)
        }
        let recorded = recordedInput(index) ?? (input: query.deidentification == nil ? input : "", size: 0, modified: 0)
        var entry = BatchManifest.Input(
            input: recorded.input, person: person, size: recorded.size, modified: recorded.modified, status: "failed", error: nil,
            exportDate: nil, objects: 0, outputs: [])
        let stagingFolder: StagingFolder
        do {
            stagingFolder = try StagingFolder(in: root)
        } catch {
            let failure = RunError(error)
            entry.error = "cannot create a staging folder: \(failure.message)"
            reporter.note(RunNote(
                .failed, entry.error ?? "", location: input, failure: RunError(failure.category, entry.error ?? "", location: input)))
            return entry
        }
        let staging = stagingFolder.path
        // Whatever was not published is removed with the folder.
        defer { stagingFolder.abandon() }
        do {
            var oneThread = reading
            oneThread.jobs = 1
            let localTimes =
                format.givesLocalTimes
                ? try PersonZone.setting(
                    query: executor.query, given: timeZone, input: .export(input), reading: oneThread, reporter: .silent,
                    cancellation: cancellation)
                : .none
            let reader = try ExportReader.open(input, reading: oneThread, cancellation: cancellation)
            let lake = try LakeWriter.make(
                format, folder: staging, splitsByType: layout.splitsByType, parquet: parquet, clinicalResource: { try reader.sideFile($0) },
                localTimes: localTimes)
            let writer = lake.writer
            let writtenFiles = lake.writtenFiles
            let knownRows = lake.rowCounts
            let tables: (pass: SummaryPass, destination: any SummaryTableDestination)? =
                summaries.flatMap { settings in lake.summaryDestination.map { (SummaryPass(settings: settings), $0) } }
            // Every table lake has its coverage table (type=coverage), a study's first look.
            let coverage: (sink: CoverageSink, destination: any CoverageTableDestination)? =
                (writer as? any CoverageTableDestination).map { (CoverageSink(), $0) }
            let objects = WriterSink(writer)
            var output: any ObjectSink = tables.map { TeeSink(objects, $0.pass.sink) } ?? objects
            if let coverage { output = TeeSink(output, coverage.sink) }
            let sink: any ObjectSink =
                includeRoutes ? RouteAttachingSink(into: output, routes: RouteLoading(reader: reader, reporter: reporter)) : output
            var silent = reporter
            silent.warning = { _ in }
            silent.progress = { _ in }
            let read = GatedExportRead(reader: reader, executor: executor, reporter: silent, cancellation: cancellation)
            let summary: ExportReader.Summary
            let written: Int
            // FHIR: what was left out (clinical records without their resource file), said in
            // the export's note, since the batch prints no per-run summary.
            var leftOut = ""
            do {
                summary = try read.run(into: sink)
                var recordings = 0
                var notWritten = 0
                if let fhir = writer as? FHIRBulkWriter {
                    try ElectrocardiogramFiles.visible(in: reader, query: executor, reporter: silent) { _, recording in
                        try fhir.write(.electrocardiogram(recording))
                        recordings += 1
                    }
                    let reasons = fhir.tally.leftOut.sorted { $0.key < $1.key }
                    notWritten = reasons.reduce(0) { $0 + $1.value }
                    leftOut = reasons.map { "; \($0.value) left out: \($0.key)" }.joined()
                }
                written = summary.admitted + recordings - notWritten
                for row in coverage?.sink.collector.rows() ?? [] { try coverage?.destination.write(row) }
                if let tables {
                    try tables.pass.finish(
                        into: tables.destination, window: executor.query.dateWindow, reporter: silent,
                        disclosesExportFacts: executor.disclosure.exportFacts, cancellation: cancellation)
                }
                try writer.finish()
            } catch {
                writer.abandon()
                throw error
            }
            // Publish: each file renamed into its partition, complete; files a previous run
            // wrote for this person and this run did not are removed.
            var outputs: [BatchManifest.Output] = []
            let rows = knownRows()
            for name in writtenFiles() {
                let table = String(name.dropLast(fileExtension.count + 1))
                let relative = layout.path(person: person, table: table, fileExtension: fileExtension)
                let destination = root + "/" + relative
                let described = try BatchManifest.describe(
                    file: staging + "/" + name, relativePath: relative, isCSV: format == .csv, rows: rows[name].map(Int.init))
                let folder = URL(fileURLWithPath: destination).deletingLastPathComponent().path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try stagingFolder.publishFile(name, to: destination)
                outputs.append(described)
            }
            // Objects written, after filters and policy: a count of the export's whole content
            // would tell a consumer how much a policy hides.
            entry.objects = written
            entry.exportDate = executor.visibleHeader(summary.header).exportDate?.iso8601
            entry.outputs = outputs
            entry.status = "complete"
            reporter.note(RunNote(.converted, "\(input): \(written) objects into person=\(person) (\(outputs.count) files)\(leftOut)"))
        } catch let error as ExportError {
            // De-identified, the message alone: its location names the input file.
            entry.error = query.deidentification == nil ? error.description : error.message
            reporter.note(RunNote(.failed, error.text, location: error.location?.description ?? input, failure: RunError(error)))
        } catch let error as OutputError {
            entry.error = error.message
            reporter.note(RunNote(.failed, error.text, location: error.path ?? input, failure: RunError(error)))
        } catch {
            let failure = RunError(error)
            entry.error = failure.message
            reporter.note(RunNote(.failed, failure.text, location: failure.location ?? input, failure: failure))
        }
        return entry
    }

    /// What the manifest records of input `index`, to know it again when resuming: its path,
    /// size and modification time. De-identified, one keyed pseudonym of the three, size and
    /// time zero: the manifest is shared with the lake, and a file's name is often the person's
    /// while its real modification time, beside the shifted export date, gives the shift away.
    func recordedInput(_ index: Int) -> (input: String, size: Int64, modified: Double)? {
        guard let (size, modified) = Self.fingerprint(inputs[index]) else { return nil }
        guard let deidentification = query.deidentification else { return (inputs[index], size, modified) }
        let pseudonym = Pseudonyms(key: deidentification.key).pseudonym("\(inputs[index])\u{0}\(size)\u{0}\(modified)", as: .file)
        return (pseudonym, 0, 0)
    }

    static func fingerprint(_ path: String) -> (Int64, Double)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return (size, modified)
    }

    static func stillThere(_ output: BatchManifest.Output, root: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: root + "/" + output.path)[.size] as? NSNumber)?.int64Value
        return size == output.bytes
    }

    /// Person keys for the inputs: from a mapping file (`input,person` lines; the input as
    /// given or its file name), else from the file names. Two inputs with one key are refused.
    public static func personKeys(for inputs: [String], mapping: String?) throws(RunError) -> [String] {
        try RunError.wrapping { try readPersonKeys(for: inputs, mapping: mapping) }
    }

    static func readPersonKeys(for inputs: [String], mapping: String?) throws -> [String] {
        var map: [String: String] = [:]
        if let mapping {
            guard let data = FileManager.default.contents(atPath: mapping) else {
                throw ExportError(.inputNotFound, "cannot read the person mapping", at: SourceLocation(file: mapping))
            }
            for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let fields = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if fields.isEmpty || fields[0].isEmpty || (number == 0 && fields.first == "input") { continue }
                guard fields.count == 2, !fields[1].isEmpty else {
                    throw QueryError(.errorInvalidArgument, "\(mapping):\(number + 1): expected 'input,person'")
                }
                map[fields[0]] = fields[1]
            }
        }
        var keys: [String] = []
        var seen: [String: String] = [:]
        for input in inputs {
            let key: String
            if mapping != nil {
                guard let mapped = map[input] ?? map[URL(fileURLWithPath: input).lastPathComponent] else {
                    throw QueryError(.errorInvalidArgument, "\(argument: .personIDs): \(input) is not in \(mapping!)", argument: .personIDs)
                }
                key = PartitionLayout.sanitize(mapped)
            } else {
                key = PartitionLayout.personKey(fromPath: input)
            }
            if let other = seen[key] {
                throw QueryError(
                    .errorInvalidArgument, "\(other) and \(input) both give person '\(key)'; name persons with \(argument: .personIDs, "FILE")",
                    argument: .personIDs)
            }
            seen[key] = input
            keys.append(key)
        }
        return keys
    }
}

/// The manifest shared by the workers.
final class BatchState: @unchecked Sendable {
    private let lock = NSLock()
    private var manifest: BatchManifest
    private let root: String
    /// Whether the manifest records when it was written (not for a de-identified lake).
    private let stamped: Bool

    init(manifest: BatchManifest, root: String, stamped: Bool) {
        self.manifest = manifest
        self.root = root
        self.stamped = stamped
    }

    func entry(person: String) -> BatchManifest.Input? {
        lock.lock()
        defer { lock.unlock() }
        return manifest.inputs.first { $0.person == person }
    }

    func record(_ entry: BatchManifest.Input) {
        lock.lock()
        defer { lock.unlock() }
        if let old = manifest.inputs.first(where: { $0.person == entry.person }), entry.isComplete {
            // Files of the previous conversion this one did not write again.
            let kept = Set(entry.outputs.map(\.path))
            for output in old.outputs where !kept.contains(output.path) { unlink(root + "/" + output.path) }
        }
        manifest.inputs.removeAll { $0.person == entry.person }
        manifest.inputs.append(entry)
    }

    func save(folder: String) throws {
        lock.lock()
        defer { lock.unlock() }
        try manifest.save(folder: folder, stamped: stamped)
    }
}

/// The next index for a worker to take.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}
