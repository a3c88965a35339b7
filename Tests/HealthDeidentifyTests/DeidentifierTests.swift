import Foundation
import HealthModel
import Testing

@testable import HealthDeidentify

/// The rules one by one, on model values: what is kept, what is replaced, what is removed.
struct DeidentifierTests {
    let key = DeidentificationKey(secret: Array(repeating: 1, count: 32))!

    func sample(source: String = "Simon’s iPhone", metadata: [MetadataEntry] = []) -> QuantitySample {
        var device = Device(
            name: "Simon’s Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,2", softwareVersion: "10.2",
            localIdentifier: "SERIAL-1", udiDeviceIdentifier: "UDI-1", creationDate: "2024-02-11 10:46:10 +0000")
        device.firmwareVersion = "1.0"
        let start = ExportTimestamp.parse("2024-06-01 08:15:00 +0200")!
        let attributes = SampleAttributes(
            uuid: ObjectUUID(high: 0x1234_5678_9ABC_8DEF, low: 0x8123_4567_89AB_CDEF), sampleType: ObjectType(identifier: "HKQuantityTypeIdentifierHeartRate", kind: .quantity),
            sourceRevision: SourceRevision(source: Source(name: source), version: "10.2"), device: device, creationDate: start,
            startDate: start, endDate: ExportTimestamp(secondsSince1970: start.secondsSince1970 + 60, utcOffsetSeconds: start.utcOffsetSeconds),
            metadata: Metadata(metadata), extensions: Extensions(attributes: [GenericAttribute(name: "note", value: "private")]))
        return QuantitySample(sample: attributes, quantity: Quantity(value: ExportNumber(72), unit: "count/min"))
    }

    @Test func metadataKeepsHealthKitsNumbersAndQuantitiesOnly() {
        let entries = [
            MetadataEntry(key: "HKWasUserEntered", value: .number(ExportNumber(1))),
            MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: .number(ExportNumber(0))),
            MetadataEntry(key: "HKWeatherTemperature", value: .quantity(Quantity(value: ExportNumber(56), unit: "degF"))),
            MetadataEntry(key: "HKTimeZone", value: .string("Europe/Paris")),
            MetadataEntry(key: "HKExternalUUID", value: .string("X")),
            MetadataEntry(key: "HKMetadataKeySyncVersion", value: .number(ExportNumber(2))),
            MetadataEntry(key: "HKFoodType", value: .string("soup")),
            MetadataEntry(key: "App Note", value: .string("Baker Street")),
            MetadataEntry(key: "App Count", value: .number(ExportNumber(3))),
        ]
        let kept = MetadataAllowList.filter(Metadata(entries)).entries.map(\.key)
        #expect(kept == ["HKWasUserEntered", "HKMetadataKeyHeartRateMotionContext", "HKWeatherTemperature"])
    }

    @Test func samplesGetPseudonymsShiftedDatesNewUUIDsAndNoIdentifiers() throws {
        let original = sample(metadata: [MetadataEntry(key: "HKTimeZone", value: .string("Europe/Paris"))])
        let deidentifier = Deidentifier(Deidentification(key: key, person: "p1"))
        guard case .quantitySample(let q)? = deidentifier.deidentify(.quantitySample(original)) else {
            Issue.record("not a quantity sample")
            return
        }
        #expect(q.sample.uuid != original.sample.uuid)
        #expect(q.sample.sourceRevision.source.name.hasPrefix("source-"))
        // Versions date a sample (an update's first days): removed, as the offsets are (UTC).
        #expect(q.sample.sourceRevision.version == nil)
        #expect(q.sample.startDate.utcOffsetSeconds == 0 && q.sample.creationDate?.utcOffsetSeconds == 0)
        let device = try #require(q.sample.device)
        #expect(device.name?.hasPrefix("device-") == true)
        #expect(device.localIdentifier == nil && device.udiDeviceIdentifier == nil && device.creationDate == nil)
        #expect(device.model == "Watch" && device.manufacturer == "Apple Inc.")
        #expect(device.hardwareVersion == nil && device.firmwareVersion == nil && device.softwareVersion == nil)
        #expect(q.sample.metadata.isEmpty && q.sample.extensions.isEmpty)
        let weeks = DateShift(key: key, person: "p1").weeks
        #expect(q.sample.startDate.secondsSince1970 == original.sample.startDate.secondsSince1970 - Int64(weeks * 7 * 86_400))
        #expect(q.sample.endDate.secondsSince1970 - q.sample.startDate.secondsSince1970 == 60)
        #expect(q.quantity == original.quantity)
        // The Health app keeps its name; the same name gets the same pseudonym from another stream.
        guard case .quantitySample(let health)? = deidentifier.deidentify(.quantitySample(sample(source: "Health"))) else {
            Issue.record("the Health app's sample did not come back a quantity sample")
            return
        }
        #expect(health.sample.sourceRevision.source.name == "Health")
        let again = Deidentifier(Deidentification(key: key, person: "p2")).deidentify(.quantitySample(original))
        guard case .quantitySample(let other)? = again else {
            Issue.record("another person's copy did not come back a quantity sample")
            return
        }
        #expect(other.sample.sourceRevision.source.name == q.sample.sourceRevision.source.name)
        #expect(other.sample.uuid == q.sample.uuid)
    }

    @Test func routesClinicalRecordsAndUnknownElementsAreRemoved() {
        let deidentifier = Deidentifier(Deidentification(key: key))
        var workout = Workout(sample: sample().sample, workoutActivityType: WorkoutActivityType(name: "HKWorkoutActivityTypeRunning"))
        workout.routes = [WorkoutRoute(sample: sample().sample, fileReference: "/workout-routes/route_2024-06-01.gpx", locations: [RouteLocation(latitude: ExportNumber(48.85))])]
        workout.workoutActivities = [WorkoutActivity(uuid: "6B1F3C2A-0D4E-4F5A-8B9C-0D1E2F3A4B5C", startDate: sample().sample.startDate)]
        guard case .workout(let w)? = deidentifier.deidentify(.workout(workout)) else {
            Issue.record("no workout")
            return
        }
        #expect(w.routes.isEmpty)
        #expect(w.workoutActivities[0].uuid != "6B1F3C2A-0D4E-4F5A-8B9C-0D1E2F3A4B5C" && ObjectUUID(uuidString: w.workoutActivities[0].uuid) != nil)
        #expect(deidentifier.deidentify(.clinicalRecord(ClinicalRecord(fhirResourceType: "Observation"))) == nil)
        #expect(deidentifier.deidentify(.unknown(UnknownObject(element: GenericElement(name: "Future")))) == nil)
    }

    /// A vision prescription keeps its lenses and loses its free text: the brand (a practice's
    /// name and address has been seen there), the attachments; its dates shift with the rest.
    @Test func aVisionPrescriptionLosesItsBrand() throws {
        var prescription = VisionPrescription(uuid: ObjectUUID(high: 1, low: 2))
        prescription.brand = "Dr. Watson, 5 Baker Street"
        prescription.dateIssued = ExportTimestamp.parse("2024-06-01 08:15:00 +0200")
        prescription.attachments = ["scan-1"]
        var eye = LensSpecification()
        eye.sphere = Quantity(value: ExportNumber(-1.25), unit: "D")
        prescription.rightEye = eye
        let deidentifier = Deidentifier(Deidentification(key: key, person: "p1"))
        guard case .visionPrescription(let v)? = deidentifier.deidentify(.visionPrescription(prescription)) else {
            Issue.record("no prescription")
            return
        }
        #expect(v.brand == nil && v.attachments.isEmpty)
        #expect(v.rightEye?.sphere == eye.sphere)
        let weeks = DateShift(key: key, person: "p1").weeks
        #expect(v.dateIssued?.secondsSince1970 == prescription.dateIssued!.secondsSince1970 - Int64(weeks * 7 * 86_400))
    }

    @Test func characteristicsAreCutToTheYearOrNinetyPlus() {
        var me = Characteristics()
        me.dateOfBirth = "1985-06-15"
        me.biologicalSex = "HKBiologicalSexFemale"
        me.other = [GenericAttribute(name: "HKCharacteristicTypeIdentifierSomethingNew", value: "x")]
        let shift = DateShift(weeks: 52)
        let asOf = ExportTimestamp.parse("2024-06-01 08:15:00 +0200")
        let cut = SafeHarborCharacteristics.cut(me, shift: shift, asOf: asOf)
        #expect(cut.dateOfBirth == "1984" && cut.biologicalSex == "HKBiologicalSexFemale" && cut.other.isEmpty)
        me.dateOfBirth = "1934-06-02"  // 89 on 2024-06-01
        #expect(SafeHarborCharacteristics.cut(me, shift: shift, asOf: asOf).dateOfBirth == "1933")
        me.dateOfBirth = "1934-06-01"  // 90 that day
        #expect(SafeHarborCharacteristics.cut(me, shift: shift, asOf: asOf).dateOfBirth == SafeHarborCharacteristics.ninetyOrOlder)
    }

    /// The header names the person by the pseudonym of the person's key, worked by hand (Python's
    /// hmac and hashlib): with the secret 00 01 … 1f, the pseudonym key is HMAC-SHA256(secret,
    /// "healthport-deidentify-v1/pseudonym"), and the person's pseudonym the first six bytes of
    /// HMAC-SHA256(that key, "person" 00 person), in hex after `person-`.
    @Test func theHeaderNamesThePersonByTheKeyedPseudonymOfThePersonsKey() throws {
        let handKey = try #require(DeidentificationKey(secret: (0..<32).map { UInt8($0) }))
        var me = Characteristics()
        me.dateOfBirth = "1985-06-15"
        me.biologicalSex = "HKBiologicalSexFemale"
        let header = ExportHeader(exportDate: ExportTimestamp.parse("2024-06-01 08:15:00 +0200"), characteristics: me)
        let alone = Deidentifier(Deidentification(key: handKey)).header(header, grantsCharacteristics: true)
        #expect(alone.personID == "person-74da8f5ba603")
        #expect(Deidentifier(Deidentification(key: handKey, person: "p017")).header(header, grantsCharacteristics: false).personID == "person-a943d6038503")
        // Never from a characteristic: another birth date, the same pseudonym; another key, another.
        me.dateOfBirth = "1950-01-01"
        let older = ExportHeader(exportDate: header.exportDate, characteristics: me)
        #expect(Deidentifier(Deidentification(key: handKey)).header(older, grantsCharacteristics: true).personID == alone.personID)
        #expect(Deidentifier(Deidentification(key: key)).header(header, grantsCharacteristics: true).personID != alone.personID)
        // Without de-identification nothing names the person.
        #expect(header.personID == nil)
    }

    @Test func theKeyFileIsMadeOnceWithMode0600AndReadBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("study.key").path
        let made = try DeidentificationKeyFile.loadOrCreate(at: path)
        #expect(made.created)
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let read = try DeidentificationKeyFile.loadOrCreate(at: path)
        #expect(!read.created && read.key == made.key)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["study.key"])  // no temporary left
        try Data("{}".utf8).write(to: folder.appendingPathComponent("bad.key"))
        #expect(throws: DeidentificationKeyError.self) { try DeidentificationKeyFile.load(at: folder.appendingPathComponent("bad.key").path) }
        #expect(made.key.identifier.count == 16)
        let manifest = String(decoding: try DeidentificationManifest(key: made.key, healthportVersion: "1", options: [:]).encoded(), as: UTF8.self)
        #expect(!manifest.contains(Data(made.key.secretBytes).base64EncodedString()) && manifest.contains(made.key.identifier))
    }
}
