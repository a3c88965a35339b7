import Foundation
import HealthJSON
import HealthModel

/// Writes anchored changes (added objects, deleted objects, the new anchor) in the chosen format.
///
/// - NDJSON: `{"type":"begin",…}`, then one line per change —
///   `{"type":"added","object":{…}}` or `{"type":"deleted","uuid":…,"sampleType":…}` — then
///   `{"type":"end","added":N,"deleted":M,"newAnchor":{"complete":…,"anchor":…,"file":…}}`.
/// - JSON: `{"added":[…],"deleted":[…],"newAnchor":{…}}`, streamed.
/// - CSV or Parquet (a folder): the added objects' tables, as `convert` writes them, plus
///   `deleted.csv` or `deleted.parquet`.
/// - FHIR (a folder): the added objects' resources, as `convert` writes them, deletions as Bulk
///   Data's transaction Bundles in `deleted.ndjson`, the new anchor in the manifest's
///   `extension`; on standard output, the added Observations and the deletion Bundles.
public final class ChangeWriter {
    public enum Format: Sendable { case ndjson, json, tables, fhir }

    /// The `"anchor"` a stream ends with.
    public enum Anchor: Sendable, Equatable {
        /// Over exports: how many changes of a pending comparison were returned (the anchor
        /// proper is the file).
        case returned(Int)
        /// Over the store: the opaque token to pass next (`StoreAnchor`).
        case token(String)
    }

    private let format: Format
    private let out: OutputBuffer?
    private let file: AtomicFile?
    private let tables: (any DeletedObjectTableWriter)?
    private let fhir: FHIRBulkWriter?
    /// Standard output's buffer, when the stream is held in `spool` until it is complete.
    private let heldFor: OutputBuffer?
    private let spool: UnsafeMutablePointer<FILE>?
    private var firstAdded = true
    private var firstDeleted = true
    private var inDeleted = false

    /// Writes NDJSON or JSON to a buffer (standard output) or an atomic file.
    public init(format: Format, buffer: OutputBuffer?, file: AtomicFile?) {
        self.format = format
        self.file = file
        self.out = file?.buffer ?? buffer
        self.tables = nil
        self.fhir = nil
        self.heldFor = nil
        self.spool = nil
    }

    /// Writes NDJSON or JSON to standard output (`buffer`) only once the whole stream is
    /// written: until `finish`, it goes to an unnamed temporary file (`tmpfile(3)`: removed when
    /// closed, even by a crash), so a run that fails at the end (an anchor that turns out not to
    /// belong to the export) prints nothing, as a file output is never put in place.
    ///
    /// - Throws: `OutputError.cannotCreate` when no temporary file can be made.
    public init(format: Format, holdingUntilComplete buffer: OutputBuffer) throws {
        guard let spool = tmpfile() else {
            throw OutputError(.cannotCreate, "cannot make a temporary file: \(String(cString: strerror(errno)))")
        }
        self.format = format
        self.file = nil
        self.out = OutputBuffer(descriptor: fileno(spool))
        self.tables = nil
        self.fhir = nil
        self.heldFor = buffer
        self.spool = spool
    }

    deinit {
        if let spool { fclose(spool) }
    }

    /// Writes tables into a folder (`CSVWriter`, `ParquetWriter`).
    public init(tables: any DeletedObjectTableWriter) {
        format = .tables
        out = nil
        file = nil
        self.tables = tables
        self.fhir = nil
        heldFor = nil
        spool = nil
    }

    /// Writes FHIR resources (`FHIRBulkWriter`): a folder, or standard output.
    public init(fhir: FHIRBulkWriter) {
        format = .fhir
        out = nil
        file = nil
        tables = nil
        self.fhir = fhir
        heldFor = nil
        spool = nil
    }

    /// Writes FHIR's Observations and deletions to standard output (`buffer`) only once the whole
    /// stream is written, as `init(format:holdingUntilComplete:)` holds NDJSON.
    ///
    /// - Throws: `OutputError.cannotCreate` when no temporary file can be made.
    public init(fhirHoldingUntilComplete buffer: OutputBuffer, clinicalResource: ((String) throws -> Data?)?) throws {
        guard let spool = tmpfile() else {
            throw OutputError(.cannotCreate, "cannot make a temporary file: \(String(cString: strerror(errno)))")
        }
        let spooled = OutputBuffer(descriptor: fileno(spool))
        let writer = FHIRBulkWriter(standardOutput: spooled)
        writer.clinicalResource = clinicalResource
        format = .fhir
        out = spooled
        file = nil
        tables = nil
        fhir = writer
        heldFor = buffer
        self.spool = spool
    }

    /// How the FHIR resources were coded and what was left out, for a FHIR stream's summary.
    public var fhirTally: FHIRCodingTally? { fhir?.tally }

    /// One of the NDJSON stream's own lines (`{"type":"begin",…}`, `{"type":"end",…}`): the
    /// type, then what `body` writes.
    private func streamLine(_ type: StaticString, _ body: (inout JSONEmitter) -> Void) {
        guard let out else { return }
        var json = JSONEmitter(out)
        json.beginObject()
        json.key("type")
        json.literal(type)
        body(&json)
        json.endObject()
        out.append(0x0A)
    }

    public func begin(_ header: ExportHeader) throws {
        switch format {
        case .ndjson:
            streamLine("begin") { json in
                json.key("formatVersion")
                json.int(HealthOutputFormat.version)
                json.field("exportDate", header.exportDate)
            }
            try out?.endRecord()
        case .json:
            out?.append("{\"added\":[")
        case .tables:
            try tables?.begin(header)
        case .fhir:
            try fhir?.begin(header)
        }
    }

    public func added(_ object: HealthObject) throws {
        switch format {
        case .ndjson:
            guard let out else { return }
            out.append("{\"type\":\"added\",\"object\":")
            var json = JSONEmitter(out)
            JSONObjectEncoder.write(object, to: &json)
            out.append("}\n")
            try out.endRecord()
        case .json:
            guard let out else { return }
            if !firstAdded { out.append(0x2C) }
            firstAdded = false
            out.append(0x0A)
            var json = JSONEmitter(out)
            JSONObjectEncoder.write(object, to: &json)
            try out.endRecord()
        case .tables:
            try tables?.write(object)
        case .fhir:
            try fhir?.write(object)
        }
    }

    private func writeDeleted(_ uuid: ObjectUUID, _ type: String, to out: OutputBuffer) {
        var json = JSONEmitter(out)
        json.beginObject()
        json.key("uuid")
        json.uuid(uuid)
        json.key("sampleType")
        json.string(type)
        json.endObject()
    }

    /// A deleted object, as HealthKit's `HKDeletedObject` reports it: its uuid (and its type).
    public func deleted(_ uuid: ObjectUUID, type: String) throws {
        switch format {
        case .ndjson:
            guard let out else { return }
            out.append("{\"type\":\"deleted\",\"uuid\":")
            var json = JSONEmitter(out)
            json.uuid(uuid)
            out.append(",\"sampleType\":")
            JSONEmitter.appendString(type, to: out)
            out.append("}\n")
            try out.endRecord()
        case .json:
            guard let out else { return }
            if !inDeleted {
                out.append("\n],\"deleted\":[")
                inDeleted = true
            }
            if !firstDeleted { out.append(0x2C) }
            firstDeleted = false
            out.append(0x0A)
            writeDeleted(uuid, type, to: out)
            try out.endRecord()
        case .tables:
            try tables?.writeDeleted(uuid, type: type)
        case .fhir:
            try fhir?.writeDeleted(uuid, type: type)
        }
    }

    /// Ends the stream with the counts and the new anchor's state, then commits.
    ///
    /// - Parameters:
    ///   - complete: whether the new anchor is caught up (no batch pending).
    ///   - anchor: written as `"anchor"` for exports and the store alike: over the store the
    ///     token to pass next; over exports how many changes of a pending comparison were
    ///     already returned (0 when complete), the anchor proper being the file.
    ///   - anchorFile: where the new anchor was written, if anywhere.
    public func finish(added: Int, deleted: Int, complete: Bool, anchor: Anchor, anchorFile: String?) throws {
        func anchorObject(_ json: inout JSONEmitter) {
            json.beginObject()
            json.key("complete")
            json.literal(complete ? "true" : "false")
            json.key("anchor")
            switch anchor {
            case .returned(let count): json.int(count)
            case .token(let token): json.string(token)
            }
            json.key("file")
            if let anchorFile { json.string(anchorFile) } else { json.null() }
            json.endObject()
        }
        switch format {
        case .ndjson:
            streamLine("end") { json in
                json.key("added")
                json.int(added)
                json.key("deleted")
                json.int(deleted)
                json.key("newAnchor")
                anchorObject(&json)
            }
        case .json:
            guard let out else { return }
            if !inDeleted { out.append("\n],\"deleted\":[") }
            out.append("\n],\"newAnchor\":")
            var json = JSONEmitter(out)
            anchorObject(&json)
            out.append("}\n")
        case .tables:
            try tables?.finish()
            return
        case .fhir:
            fhir?.manifestExtension = { ext in
                ext.int("added", added)
                ext.int("deleted", deleted)
                ext.bool("complete", complete)
                switch anchor {
                case .returned(let count): ext.int("anchor", count)
                case .token(let token): ext.string("anchor", token)
                }
                ext.string("anchorFile", anchorFile)
            }
            try fhir?.finish()
            if let heldFor, let spool { try Self.copy(spool, to: heldFor) }
            return
        }
        if let file {
            try file.commit()
        } else if let heldFor, let spool, let out {
            try out.flush()
            try Self.copy(spool, to: heldFor)
        } else {
            try out?.flush()
        }
    }

    /// Copies the held stream to standard output.
    private static func copy(_ spool: UnsafeMutablePointer<FILE>, to destination: OutputBuffer) throws {
        let descriptor = fileno(spool)
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw OutputError(.ioError, "cannot read back the held changes") }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw OutputError(.ioError, "cannot read back the held changes") }
            if n == 0 { break }
            try chunk.withUnsafeBytes { try destination.appendRecords(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        try destination.flush()
    }

    public func abandon() {
        file?.abandon()
        tables?.abandon()
        fhir?.abandon()
        out?.discard()
    }
}

/// A writer of tables that also holds the `deleted` table of anchored changes.
public protocol DeletedObjectTableWriter: ObjectWriter {
    /// A deleted object's row in the `deleted` table.
    func writeDeleted(_ uuid: ObjectUUID, type: String) throws
}

extension CSVWriter: DeletedObjectTableWriter {}
extension ParquetWriter: DeletedObjectTableWriter {}
