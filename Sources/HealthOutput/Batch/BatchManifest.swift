import Crypto
import Foundation
import HealthJSON

/// `_manifest.json` at the root of partitioned output: what was converted from what, with
/// counts and checksums, so that a batch can be checked, and resumed (`--resume` skips inputs
/// whose outputs are complete and unchanged).
///
/// Written atomically after each input, so a killed batch keeps what it finished.
public struct BatchManifest: Codable, Sendable, Equatable {
    public static let fileName = "_manifest.json"
    public static let version = 1

    public struct Output: Codable, Sendable, Equatable {
        /// Relative to the output folder.
        public var path: String
        /// Records (objects or CSV rows, header excluded).
        public var rows: Int
        public var bytes: Int64
        public var sha256: String
    }

    public struct Input: Codable, Sendable, Equatable {
        /// As given on the command line.
        public var input: String
        public var person: String
        /// The input's size and modification time when converted: a changed input is redone.
        public var size: Int64
        public var modified: Double
        public var status: String
        public var error: String?
        public var exportDate: String?
        /// Objects written (after the filters and the policy).
        public var objects: Int
        public var outputs: [Output]

        public var isComplete: Bool { status == "complete" }

        public init(
            input: String, person: String, size: Int64, modified: Double, status: String, error: String?, exportDate: String?,
            objects: Int, outputs: [Output]
        ) {
            self.input = input
            self.person = person
            self.size = size
            self.modified = modified
            self.status = status
            self.error = error
            self.exportDate = exportDate
            self.objects = objects
            self.outputs = outputs
        }
    }

    public var manifestVersion = BatchManifest.version
    public var healthportVersion: String
    /// Format, partition keys and a fingerprint of the filters: outputs are only reused for the
    /// same conversion.
    public var format: String
    public var partition: [String]
    public var query: String
    /// The rules the lake's summary tables were made by (`SummaryRules`); `nil` for a lake
    /// without them. A lake is resumed only under the same rules: days made by two sets of
    /// rules never sit in one lake.
    public var summaryRules: Int?
    public var updated: String
    public var inputs: [Input]

    public init(healthportVersion: String, format: String, partition: [String], query: String, summaryRules: Int? = nil) {
        self.healthportVersion = healthportVersion
        self.format = format
        self.partition = partition
        self.query = query
        self.summaryRules = summaryRules
        self.updated = ""
        self.inputs = []
    }

    /// Reads `_manifest.json` in `folder`; `nil` when there is none.
    public static func load(folder: String) throws -> BatchManifest? {
        let path = folder + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(BatchManifest.self, from: data)
        } catch {
            throw OutputError(.invalidRequest, "cannot read the manifest (\(error.localizedDescription))", path: path)
        }
    }

    /// Writes `_manifest.json` atomically, mode 0600, with the time of writing; a de-identified
    /// lake's says none (`stamped: false`): the real time beside the shifted dates of the data
    /// would tell the shift to within the days between export and conversion.
    public mutating func save(folder: String, stamped: Bool = true) throws {
        updated = stamped ? ISO8601DateFormatter().string(from: Date()) : "not recorded (de-identified)"
        inputs.sort { $0.person < $1.person }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = try AtomicFile(destination: folder + "/" + Self.fileName)
        file.buffer.append(contentsOf: Array(try encoder.encode(self)))
        file.buffer.append(0x0A)
        try file.commit()
    }

    /// Size, row count and SHA-256 of an output file. Rows are records: lines for NDJSON (JSON
    /// never holds a raw newline); for CSV, newlines outside double quotes (RFC 4180), less the
    /// header line; `rows` when the writer knows them (Parquet).
    public static func describe(file path: String, relativePath: String, isCSV: Bool, rows knownRows: Int? = nil) throws -> Output {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw OutputError(.ioError, "cannot read back", path: path)
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var bytes: Int64 = 0
        var records = 0
        var quoted = false
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            bytes += Int64(chunk.count)
            for byte in chunk where knownRows == nil {
                if byte == 0x22 && isCSV {
                    quoted.toggle()
                } else if byte == 0x0A && !quoted {
                    records += 1
                }
            }
        }
        let digest = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return Output(path: relativePath, rows: knownRows ?? max(0, records - (isCSV ? 1 : 0)), bytes: bytes, sha256: digest)
    }
}
