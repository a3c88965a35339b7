import Foundation
import HealthModel

/// NDJSON split by type, for partitioned output: one file per type (`HeartRate.ndjson`,
/// `Workout.ndjson`, …) in a folder, or every object in one file, object lines only. A data
/// engine reads many such files as one table, so the export's header line (which has another
/// shape) is left out; the batch manifest records it instead.
///
/// Files are written under a hidden staging folder and moved into `folder` by `finish`.
public final class NDJSONTablesWriter: ObjectWriter {
    private let folder: String
    private let staging: String
    private let splitsByType: Bool
    private let scratch = OutputBuffer(descriptor: -1, capacity: 64 * 1024)
    private var files: [String: (out: OutputBuffer, fd: Int32)] = [:]
    private var order: [String] = []
    /// Rows written per file name.
    public private(set) var rowCounts: [String: Int] = [:]
    private var finished = false

    /// - Parameter splitsByType: one file per type; otherwise every object in `objects.ndjson`.
    public init(folder: String, splitsByType: Bool) throws {
        self.folder = folder
        self.splitsByType = splitsByType
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw OutputError(.cannotCreate, "cannot create the folder", path: folder)
        }
        var template = Array("\(folder)/.healthport-staging-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw OutputError(.cannotCreate, "cannot write in the folder: \(String(cString: strerror(errno)))", path: folder)
        }
        staging = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        TemporaryFiles.shared.register(staging)
    }

    deinit {
        if !finished { abandon() }
    }

    /// The file names written, in creation order.
    public var writtenFiles: [String] { order }

    /// The file an object goes to.
    public static func fileName(for object: HealthObject, splitsByType: Bool) -> String {
        guard splitsByType else { return "objects.ndjson" }
        return CSVWriter.safeFileStem(TypeCatalogue.shortName(of: object.objectType.identifier)) + ".ndjson"
    }

    public func begin(_ header: ExportHeader) throws {}

    public func write(_ object: HealthObject) throws {
        let name = Self.fileName(for: object, splitsByType: splitsByType)
        let out = try buffer(name)
        var json = JSONEmitter(out)
        JSONObjectEncoder.write(object, to: &json)
        out.append(0x0A)
        rowCounts[name, default: 0] += 1
        try out.endRecord()
    }

    private func buffer(_ name: String) throws -> OutputBuffer {
        if let existing = files[name] { return existing.out }
        let fd = open(staging + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw OutputError(.cannotCreate, "cannot create: \(String(cString: strerror(errno)))", path: name) }
        let out = OutputBuffer(descriptor: fd, capacity: 64 * 1024)
        files[name] = (out, fd)
        order.append(name)
        return out
    }

    public func finish() throws {
        for name in order {
            guard let file = files[name] else { continue }
            do {
                try file.out.flush()
            } catch let error as OutputError {
                abandon()
                throw OutputError(error.code, error.message, path: name)
            }
            fsync(file.fd)
            close(file.fd)
        }
        files.removeAll()
        for name in order where rename(staging + "/" + name, folder + "/" + name) != 0 {
            let message = String(cString: strerror(errno))
            abandon()
            throw OutputError(.cannotCreate, "cannot move into place: \(message)", path: folder + "/" + name)
        }
        rmdir(staging)
        TemporaryFiles.shared.unregister(staging)
        finished = true
    }

    public func abandon() {
        guard !finished else { return }
        finished = true
        for (_, file) in files { close(file.fd) }
        files.removeAll()
        try? FileManager.default.removeItem(atPath: staging)
        TemporaryFiles.shared.unregister(staging)
    }

    public func encode(_ object: HealthObject) throws -> [UInt8] {
        var json = JSONEmitter(scratch)
        JSONObjectEncoder.write(object, to: &json)
        scratch.append(0x0A)
        return scratch.takeBytes()
    }

    public func writeEncoded(_ record: [UInt8]) throws {
        throw OutputError(.invalidRequest, "partitioned output is not sorted")
    }
}
