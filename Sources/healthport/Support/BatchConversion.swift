import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// `convert` over many exports into partitioned output: each export converted on its own
/// worker (`--jobs` at a time) into a private staging folder, then published into its
/// partitions file by file (each renamed into place complete) and recorded in the manifest.
/// One bad export is reported and does not stop the others.
///
/// Workers share only immutable values, the locked `BatchState` and `Counter`, and
/// `Diagnostics`, which writes each line with one `write(2)`, so lines never interleave.
struct BatchConversion: @unchecked Sendable {
    let inputs: [String]
    let persons: [String]
    let layout: PartitionLayout
    let format: OutputFormat
    let root: String
    let jobs: Int
    let resume: Bool
    let executor: QueryExecutor
    let includeRoutes: Bool
    let log: Diagnostics

    var fileExtension: String { format == .csv ? "csv" : "ndjson" }

    /// Runs the batch; returns how many inputs failed.
    func run() throws -> Int {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw OutputError(.cannotCreate, "cannot create the folder", path: root)
        }
        // Staging folders of a batch that was killed: never published, safe to remove (one
        // batch writes a folder at a time).
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name.hasPrefix(".healthport-batch-") {
            try? FileManager.default.removeItem(atPath: root + "/" + name)
        }
        let queryFingerprint = executor.query.identityHash.prefix(16).map { String(format: "%02x", $0) }.joined()
        let fresh = BatchManifest(
            healthportVersion: Healthport.version, format: format.rawValue, partition: layout.keys.map(\.rawValue),
            query: queryFingerprint)
        var previous = try BatchManifest.load(folder: root)
        if let existing = previous, existing.format != fresh.format || existing.partition != fresh.partition || existing.query != fresh.query {
            guard !resume else {
                throw OutputError(
                    .invalidRequest,
                    "--resume: the folder holds a conversion with another format, partition or filters; use a new folder",
                    path: root)
            }
            previous = nil
        }
        let state = BatchState(manifest: previous ?? fresh, root: root)
        var pending: [Int] = []
        for index in inputs.indices {
            if resume, let done = state.entry(person: persons[index]), done.isComplete, done.input == inputs[index],
                let (size, modified) = Self.fingerprint(inputs[index]), done.size == size, done.modified == modified,
                done.outputs.allSatisfy({ Self.stillThere($0, root: root) })
            {
                log.note("\(inputs[index]): already converted (person=\(persons[index])); skipped")
                continue
            }
            pending.append(index)
        }
        let next = Counter()
        let work = pending
        let workers = max(1, min(jobs, work.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let position = next.take(below: work.count) {
                let index = work[position]
                let entry = convert(index)
                state.record(entry)
                do {
                    try state.save(folder: root)
                } catch {
                    log.error("cannot write the manifest: \(error)", at: root)
                }
            }
        }
        return pending.filter { state.entry(person: persons[$0])?.isComplete != true }.count
    }

    /// Converts one export and publishes its files; never throws: a failure is recorded.
    private func convert(_ index: Int) -> BatchManifest.Input {
        let input = inputs[index]
        let person = persons[index]
        let (size, modified) = Self.fingerprint(input) ?? (0, 0)
        var entry = BatchManifest.Input(
            input: input, person: person, size: size, modified: modified, status: "failed", error: nil, exportDate: nil,
            objects: 0, outputs: [])
        var template = Array("\(root)/.healthport-batch-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            entry.error = "cannot create a staging folder: \(String(cString: strerror(errno)))"
            log.error(entry.error!, at: input)
            return entry
        }
        let staging = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        TemporaryFiles.shared.register(staging)
        defer {
            try? FileManager.default.removeItem(atPath: staging)
            TemporaryFiles.shared.unregister(staging)
        }
        do {
            let reader = try ExportReader(.path(input))
            let writer: any ObjectWriter
            let written: () -> [String]
            if format == .csv {
                let csv = try CSVWriter(folder: staging)
                writer = csv
                written = { csv.writtenFiles }
            } else {
                let ndjson = try NDJSONTablesWriter(folder: staging, splitsByType: layout.splitsByType)
                writer = ndjson
                written = { ndjson.writtenFiles }
            }
            let pipeline = ConvertPipeline(executor: executor, writer: writer, progress: ProgressLine(forced: false, quiet: true))
            if includeRoutes { pipeline.routeLoader = ConvertPipeline.routeLoader(reader: reader, log: log) }
            let summary: ExportReader.Summary
            do {
                summary = try reader.read(into: pipeline, warning: { _ in }, types: executor.typesToRead)
                try writer.finish()
            } catch {
                writer.abandon()
                throw error
            }
            // Publish: each file renamed into its partition, complete; files a previous run
            // wrote for this person and this run did not are removed.
            var outputs: [BatchManifest.Output] = []
            for name in written() {
                let table = String(name.dropLast(fileExtension.count + 1))
                let relative = layout.path(person: person, table: table, fileExtension: fileExtension)
                let destination = root + "/" + relative
                let described = try BatchManifest.describe(file: staging + "/" + name, relativePath: relative, isCSV: format == .csv)
                let folder = (destination as NSString).deletingLastPathComponent
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                guard rename(staging + "/" + name, destination) == 0 else {
                    throw OutputError(.cannotCreate, "cannot move into place: \(String(cString: strerror(errno)))", path: destination)
                }
                outputs.append(described)
            }
            // Objects written, after filters and policy: a count of the export's whole content
            // would tell a consumer how much a policy hides.
            entry.objects = pipeline.written
            entry.exportDate = summary.header.exportDate?.iso8601
            entry.outputs = outputs
            entry.status = "complete"
            log.note("\(input): \(pipeline.written) objects into person=\(person) (\(outputs.count) files)")
        } catch let error as ExportError {
            entry.error = error.description
            log.error(error.message, at: error.location?.description ?? input)
        } catch let error as OutputError {
            entry.error = error.message
            log.error(error.message, at: error.path ?? input)
        } catch {
            entry.error = "\(error)"
            log.error("\(error)", at: input)
        }
        return entry
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
    static func personKeys(for inputs: [String], mapping: String?) throws -> [String] {
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
                    throw QueryError(.errorInvalidArgument, "--person-id: \(input) is not in \(mapping!)")
                }
                key = PartitionLayout.sanitize(mapped)
            } else {
                key = PartitionLayout.personKey(fromPath: input)
            }
            if let other = seen[key] {
                throw QueryError(
                    .errorInvalidArgument, "\(other) and \(input) both give person '\(key)'; name persons with --person-id FILE")
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

    init(manifest: BatchManifest, root: String) {
        self.manifest = manifest
        self.root = root
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
        try manifest.save(folder: folder)
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
