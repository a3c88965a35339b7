import Foundation
import HealthJSON
import HealthModel

/// NDJSON split by type, for partitioned output: one file per type (`HeartRate.ndjson`,
/// `Workout.ndjson`, …) in a folder, or every object in one file, object lines only. A data
/// engine reads many such files as one table, so the export's header line (which has another
/// shape) is left out; the batch manifest records it instead.
///
/// Files are written under a hidden staging folder and moved into `folder` by `finish`.
public final class NDJSONTablesWriter: ObjectWriter {
    private let staging: StagingFolder
    private let splitsByType: Bool
    private var files: [String: OutputBuffer] = [:]
    /// Rows written per file name.
    public private(set) var rowCounts: [String: Int] = [:]
    /// Samples' local times beside their instants (`LocalTimes`); `nil` for none.
    public var localTimes: LocalTimes?

    /// - Parameter splitsByType: one file per type; otherwise every object in `objects.ndjson`.
    public init(folder: String, splitsByType: Bool) throws {
        self.splitsByType = splitsByType
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw OutputError(.cannotCreate, "cannot create the folder", path: folder)
        }
        staging = try StagingFolder(in: folder)
    }

    /// The file names written, in creation order.
    public var writtenFiles: [String] { staging.names }

    /// The file an object goes to.
    public static func fileName(for object: HealthObject, splitsByType: Bool) -> String {
        guard splitsByType else { return "objects.ndjson" }
        return TableFileNames.safeFileStem(TypeCatalogue.shortName(of: object.objectType.identifier)) + ".ndjson"
    }

    public func begin(_ header: ExportHeader) throws { localTimes?.begin(header) }

    public func write(_ object: HealthObject) throws {
        let name = Self.fileName(for: object, splitsByType: splitsByType)
        let out = try buffer(name)
        JSONObjectEncoder.writeLine(object, to: out, localTimes: localTimes)
        rowCounts[name, default: 0] += 1
        try out.endRecord()
    }

    private func buffer(_ name: String) throws -> OutputBuffer {
        if let existing = files[name] { return existing }
        let out = try staging.create(name)
        files[name] = out
        return out
    }

    public func finish() throws {
        try staging.publish()
    }

    public func abandon() {
        staging.abandon()
    }
}
