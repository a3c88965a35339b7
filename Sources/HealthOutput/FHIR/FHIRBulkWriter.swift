import Foundation
import HealthJSON
import HealthModel

/// FHIR R4 in the Bulk Data layout (`--format fhir`): NDJSON with one resource per line and one
/// file per resource type in a folder (`Observation.ndjson`, `Device.ndjson`, `Patient.ndjson`,
/// the clinical records' own types, `DocumentReference.ndjson`), with a `manifest.json` in the
/// shape of a Bulk Data export's; or, on standard output, the Observations alone.
///
/// Every object becomes one resource whose id is the object's uuid (`FHIRObservationEncoder`,
/// `FHIRClinicalResource`); the Patient, which every Observation refers to, comes from the
/// header (its characteristics already filtered by the policy, its id as `FHIRPatient` says;
/// always written, on standard output referred to only), the Devices from the Observations written, so what the gate keeps
/// out leaves no resource, no Device of its own and no count. With the summary tables
/// (`convert --summaries`, a lake's), the day table's days and the sleep nights are written as
/// the daily and nightly Observations `days` and `sleep --format fhir` write
/// (`FHIRDailyObservationEncoder`, `FHIRNightObservationEncoder`), after the samples' in the same
/// `Observation.ndjson`: Bulk Data holds one resource type per file. In a folder, files are written
/// into a private staging folder and the folder changes as a whole when the run completes
/// (`StagingFolder`), as CSV's tables do.
///
/// For example:
/// ```swift
/// let writer = try FHIRBulkWriter(folder: "health-fhir")
/// try writer.begin(header)
/// for object in objects { try writer.write(object) }
/// try writer.finish()
/// ```
public final class FHIRBulkWriter: ObjectWriter {
    private enum Destination {
        case folder(StagingFolder)
        case standardOutput(OutputBuffer)
    }

    private let destination: Destination
    private let encoder = FHIRObservationEncoder()
    /// The day table's days and the nights, with `--summaries`.
    private var days = FHIRDailyObservationEncoder()
    private var nights = FHIRNightObservationEncoder()
    /// The Observations' buffer: a file of the folder, created on first use, or standard output.
    private var observations: OutputBuffer?
    private var files: [String: OutputBuffer] = [:]
    private var patient: FHIRPatient? = nil
    private var finished = false
    /// Lines per file, for the manifest and the batch manifest.
    public private(set) var lineCounts: [String: Int] = [:]
    /// When the data was read (the export's date): the manifest's `transactionTime`.
    private var exportDate: ExportTimestamp?

    /// Reads a clinical record's FHIR resource by its path in the export (`resourceFilePath`
    /// without its leading `/`), or gives `nil` when it cannot. Without it (the store keeps no
    /// resources), clinical records are left out and counted.
    public var clinicalResource: ((String) throws -> Data?)? = nil
    /// Whether `finish` writes `manifest.json` into the folder (partitions have their own).
    public var writesManifest = true
    /// The `healthport` member of the manifest's `extension`, written by the caller (a change
    /// stream's new anchor); the coding tally is always there.
    public var manifestExtension: ((inout ManifestExtension) -> Void)? = nil

    /// How the resources were coded, per kind (the days' and nights' Observations as `day` and
    /// `night`), and what was left out.
    public var tally: FHIRCodingTally {
        var tally = encoder.tally
        tally.add(days: days, nights: nights)
        return tally
    }

    /// Writes a folder of NDJSON files, created if missing.
    ///
    /// - Throws: `OutputError.cannotCreate`.
    public init(folder: String) throws {
        destination = .folder(try StagingFolder.forFolderOutput(folder))
    }

    /// Writes the Observations alone to standard output (`buffer`).
    public init(standardOutput buffer: OutputBuffer) {
        destination = .standardOutput(buffer)
        observations = buffer
    }

    deinit {
        if !finished { abandon() }
    }

    /// The file names written into the folder, in creation order (a partitioned conversion
    /// publishes each into its partition).
    public var writtenFiles: [String] {
        if case .folder(let staging) = destination { return staging.names }
        return []
    }

    public func begin(_ header: ExportHeader) throws {
        exportDate = header.exportDate
        // Always a Patient, so every Observation says whose it is, even when no characteristic
        // is shown (a policy hides them, a de-identified output has none, the export has none).
        let patient = FHIRPatient(header)
        self.patient = patient
        encoder.subject = patient.subjectMember
        days.patient = patient
        nights.patient = patient
        if let out = try file("Patient") {
            patient.write(to: out)
            lineCounts["Patient.ndjson", default: 0] += 1
            try out.endRecord()
        } else {
            encoder.tally.leftOut["resources other than Observations (standard output carries Observations only)", default: 0] += 1
        }
    }

    @inline(__always)
    public func write(_ object: HealthObject) throws {
        if case .clinicalRecord(let record) = object {
            try write(record)
            return
        }
        let out = try observationBuffer()
        _ = encoder.write(object, to: out)
        lineCounts["Observation.ndjson", default: 0] += 1
        try out.endRecord()
        if encoder.devices.pending.count > 0 { try takeDevices() }
    }

    private func write(_ record: ClinicalRecord) throws {
        var data: Data? = nil
        if let path = record.resourceFilePath, let clinicalResource {
            data = try clinicalResource(path.hasPrefix("/") ? String(path.dropFirst()) : path)
        }
        if clinicalResource == nil {
            encoder.tally.leftOut["clinical records without their FHIR resource (it is read from the export, not the store)", default: 0] += 1
            return
        }
        switch FHIRClinicalResource.make(record, data: data, subject: patient) {
        case .leftOut(let reason):
            encoder.tally.leftOut[reason, default: 0] += 1
        case .resource(let type, let line):
            guard let out = try file(type) else {
                encoder.tally.leftOut["resources other than Observations (standard output carries Observations only)", default: 0] += 1
                return
            }
            out.append(contentsOf: line)
            lineCounts[type + ".ndjson", default: 0] += 1
            encoder.tally.add(kind: "clinicalRecord", .clinical)
            try out.endRecord()
        }
    }

    /// A day of the day table as its daily Observations, one per measure with a code, beside the
    /// samples' (`convert --summaries`).
    func write(day: DayRow, columns: [Int]) throws {
        let out = try observationBuffer()
        let written = days.write(day, columns: columns, to: out)
        lineCounts["Observation.ndjson", default: 0] += written
        try out.endRecord()
    }

    /// A night as its Observation, its stages as components (`convert --summaries`).
    func write(night: SleepNight) throws {
        let out = try observationBuffer()
        if nights.write(night, to: out) { lineCounts["Observation.ndjson", default: 0] += 1 }
        try out.endRecord()
    }

    /// A deleted object as a Bulk Data deletion: a transaction `Bundle` with one `DELETE` of the
    /// resource the object was written as (`deleted.ndjson`, or a line on standard output). A
    /// clinical record's resource type is in its FHIR resource, which a deletion no longer has:
    /// it gets a line for each resource type its clinical type can be (a lab result is an
    /// `Observation` or a `DiagnosticReport`) and for the `DocumentReference` that carries a DSTU2
    /// record; a server reports the others as not found, each in its own transaction.
    public func writeDeleted(_ uuid: ObjectUUID, type: String) throws {
        let out: OutputBuffer
        switch destination {
        case .standardOutput(let buffer): out = buffer
        case .folder:
            guard let deleted = try file("deleted") else { return }
            out = deleted
        }
        for resourceType in Self.resourceTypes(ofType: type) {
            out.append("{\"resourceType\":\"Bundle\",\"type\":\"transaction\",\"entry\":[{\"request\":{\"method\":\"DELETE\",\"url\":\"")
            out.appendRaw(resourceType)
            out.append(0x2F)
            let p = out.reserve(ObjectUUID.textLength)
            uuid.format(into: p)
            out.advance(by: ObjectUUID.textLength)
            out.append("\"}}]}\n")
            lineCounts["deleted.ndjson", default: 0] += 1
            try out.endRecord()
        }
    }

    /// The resource types an object of a type can have been written as: `Observation` for
    /// everything but clinical records; for those, every FHIR resource type HealthKit files
    /// under the clinical type, and `DocumentReference`.
    /// Resource types a Health Records download holds beside the ones HealthKit files as
    /// clinical types.
    private static let otherClinicalResourceTypes: Set<String> = [
        "Patient", "Practitioner", "PractitionerRole", "Organization", "Encounter", "Location", "Medication", "CarePlan",
        "CareTeam", "Goal", "Specimen", "ServiceRequest", "FamilyMemberHistory",
    ]

    static func resourceTypes(ofType identifier: String) -> [String] {
        let candidates = [
            "AllergyIntolerance", "Condition", "Coverage", "DiagnosticReport", "DocumentReference", "Immunization",
            "MedicationDispense", "MedicationOrder", "MedicationRequest", "MedicationStatement", "Observation", "Procedure",
        ]
        var types = candidates.filter { candidate in
            ObjectType.clinicalCandidates(fhirResourceType: candidate).contains { $0.identifier == identifier }
        }
        if types.isEmpty {
            // A resource type HealthKit has no clinical type for keeps its own name as the type
            // (`Patient`); any other name is an element's that healthport wrote as an Observation.
            guard otherClinicalResourceTypes.contains(identifier) else { return ["Observation"] }
            types = [identifier]
        }
        if !types.contains("DocumentReference") { types.append("DocumentReference") }
        return types
    }

    public func finish() throws {
        finished = true
        switch destination {
        case .standardOutput(let out):
            try out.flush()
        case .folder(let staging):
            if writesManifest {
                let manifest = try staging.create("manifest.json")
                writeManifest(to: manifest)
            }
            try staging.publish()
        }
    }

    public func abandon() {
        finished = true
        switch destination {
        case .standardOutput(let out): out.discard()
        case .folder(let staging): staging.abandon()
        }
    }

    // MARK: Files

    @inline(__always)
    private func observationBuffer() throws -> OutputBuffer {
        if let observations { return observations }
        let out = try file("Observation")!
        observations = out
        return out
    }

    /// The buffer of `<type>.ndjson` in the folder, created on first use; `nil` on standard
    /// output, except for Observations.
    private func file(_ type: String) throws -> OutputBuffer? {
        switch destination {
        case .standardOutput(let out):
            return type == "Observation" ? out : nil
        case .folder(let staging):
            let name = type + ".ndjson"
            if let existing = files[name] { return existing }
            let out = try staging.create(name)
            files[name] = out
            return out
        }
    }

    /// Moves the Devices first referred to by the last Observation into `Device.ndjson`.
    private func takeDevices() throws {
        let pending = encoder.devices.pending
        defer { pending.discard() }
        guard let out = try file("Device") else { return }
        let lines = pending.buffered.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        out.append(pending.buffered)
        lineCounts["Device.ndjson", default: 0] += lines
        try out.endRecord()
    }

    // MARK: Manifest

    /// The `healthport` member of the manifest's `extension`, for a caller's own fields.
    public struct ManifestExtension {
        var json: JSONEmitter

        /// `"key":"value"`.
        public mutating func string(_ key: String, _ value: String?) {
            json.key(string: key)
            if let value { json.string(value) } else { json.null() }
        }

        /// `"key":n`.
        public mutating func int(_ key: String, _ value: Int) {
            json.key(string: key)
            json.int(value)
        }

        /// `"key":true|false`.
        public mutating func bool(_ key: String, _ value: Bool) {
            json.key(string: key)
            json.literal(value ? "true" : "false")
        }
    }

    /// The Bulk Data manifest (`transactionTime` the export's date, `output` and `deleted` the
    /// files with their line counts, urls relative to the folder) and, in its `extension`,
    /// healthport's: the format version, the coding tally, what was left out.
    private func writeManifest(to out: OutputBuffer) {
        var json = JSONEmitter(out)
        json.beginObject()
        if let exportDate {
            json.key("transactionTime")
            json.date(exportDate)
        }
        json.key("requiresAccessToken")
        json.literal("false")
        json.key("outputFormat")
        json.literal("application/fhir+ndjson")
        func files(_ key: StaticString, _ names: [String]) {
            json.key(key)
            json.beginArray()
            for name in names {
                json.element()
                json.beginObject()
                json.key("type")
                json.string(name == "deleted.ndjson" ? "Bundle" : String(name.dropLast(".ndjson".count)))
                json.key("url")
                json.string(name)
                json.key("count")
                json.int(lineCounts[name] ?? 0)
                json.endObject()
            }
            json.endArray()
        }
        let written = writtenFiles.filter { $0.hasSuffix(".ndjson") }
        files("output", written.filter { $0 != "deleted.ndjson" })
        files("deleted", written.filter { $0 == "deleted.ndjson" })
        json.key("error")
        json.beginArray()
        json.endArray()
        json.key("extension")
        json.beginObject()
        json.key("healthport")
        json.beginObject()
        json.key("formatVersion")
        json.int(HealthOutputFormat.version)
        json.key("coding")
        json.beginObject()
        for kind in tally.counts.keys.sorted() {
            json.key(string: kind)
            json.beginObject()
            for coding in FHIRCodingTally.Coding.allCases {
                guard let n = tally.counts[kind]?[coding] else { continue }
                json.key(string: coding.rawValue)
                json.int(n)
            }
            json.endObject()
        }
        json.endObject()
        let tally = self.tally
        if !tally.leftOut.isEmpty {
            json.key("leftOut")
            json.beginObject()
            for reason in tally.leftOut.keys.sorted() {
                json.key(string: reason)
                json.int(tally.leftOut[reason] ?? 0)
            }
            json.endObject()
        }
        if let manifestExtension {
            var ext = ManifestExtension(json: json)
            manifestExtension(&ext)
            json = ext.json
        }
        json.endObject()
        json.endObject()
        json.endObject()
        out.append(0x0A)
    }
}
