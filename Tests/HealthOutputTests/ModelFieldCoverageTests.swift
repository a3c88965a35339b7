import Foundation
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthTestSupport
import Testing

/// A field added to the model cannot be forgotten by one of the places that write or query it.
///
/// The model's stored properties are found by reflection (`Mirror`), not listed here, so a new
/// one is checked without being named:
/// - `fullObjects` builds one object of each kind, and a header, and reflection checks that
///   they set every stored property of every model type (a new one fails here until it is set);
///   free fields get a value found nowhere else (a marker).
/// - **JSON** reads each of them back as itself (`decode(encode(x)) == x`).
/// - **Apple's export** and **the tables** (CSV; Parquet is built from the same `TableRows`)
///   hold a marker of every field, or the field is listed with the reason it has no place
///   there (`notInAppleExport`, `notInTables`).
/// - **Predicates**: `PredicateKeyPath.resolve` knows the property's name or HealthKit's
///   spelling of it, or the property (or its type) is listed with the reason no key path
///   names it.
///
/// The round trips over every real sample (`ObjectDecoderTests`, `ExportWriterTests`) check
/// the same writers on what real exports hold.
@Suite struct ModelFieldCoverageTests {
    /// A stored property, as `Type.label` (`Workout.totalDistance`).
    typealias Field = String

    /// What reflection found: every stored property declared, the ones set somewhere, and for
    /// each the paths it was reached by from an object (`workout.sample.device`).
    struct Census {
        var declared: Set<Field> = []
        var populated: Set<Field> = []
        var paths: [Field: Set<String>] = [:]
        /// Properties that hold model values walked further (`Workout.sample`): their parts are
        /// the fields.
        var containers: Set<Field> = []
    }

    /// Values that are leaves here: their own tests cover their parts.
    static let leafTypes: Set<String> = [
        "ExportNumber", "ExportTimestamp", "ObjectUUID", "ObjectType", "CalendarDate", "Metadata", "Extensions",
        "GenericElement", "GenericAttribute", "WorkoutActivityType", "WorkoutEventType", "CategoryValue",
    ]

    static func isEmpty(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.isEmpty }
        if mirror.displayStyle == .collection || mirror.displayStyle == .dictionary { return mirror.children.isEmpty }
        if let text = value as? String { return text.isEmpty }
        if let metadata = value as? Metadata { return metadata.isEmpty }
        if let extensions = value as? Extensions { return extensions.isEmpty }
        return false
    }

    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrap($0.value) } ?? nil
    }

    /// Whether a property's value is a model value (or an array of them) walked further.
    static func isContainer(_ value: Any) -> Bool {
        guard let value = unwrap(value) else { return false }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .collection { return mirror.children.first.map { isContainer($0.value) } ?? false }
        if value is Device { return true }
        let name = String(describing: type(of: value))
        return String(reflecting: type(of: value)).hasPrefix("HealthModel.") && !leafTypes.contains(name)
    }

    static func walk(_ value: Any, path: String, into census: inout Census) {
        guard let value = unwrap(value) else { return }
        let mirror = Mirror(reflecting: value)
        let typeName = String(describing: type(of: value))
        switch mirror.displayStyle {
        case .collection:
            for child in mirror.children { walk(child.value, path: path, into: &census) }
            return
        case .enum:
            // HealthObject, CorrelatedSample: the case's payload.
            for child in mirror.children { walk(child.value, path: path + (child.label.map { "." + $0 } ?? ""), into: &census) }
            return
        default:
            break
        }
        guard String(reflecting: type(of: value)).hasPrefix("HealthModel."), !leafTypes.contains(typeName) else { return }
        if let device = value as? Device {
            // Its fields live in a shared box (`Device.storage`): each is checked by name.
            for (name, field) in deviceFields {
                let key = "Device.\(name)"
                census.declared.insert(key)
                census.paths[key, default: []].insert(path + "." + name)
                if let text = device[keyPath: field], !text.isEmpty { census.populated.insert(key) }
            }
            return
        }
        for child in mirror.children {
            guard let label = child.label else { continue }
            let key = "\(typeName).\(label)"
            census.declared.insert(key)
            census.paths[key, default: []].insert(path + "." + label)
            if !isEmpty(child.value) { census.populated.insert(key) }
            if isContainer(child.value) { census.containers.insert(key) }
            walk(child.value, path: path + "." + label, into: &census)
        }
    }

    /// `Device`'s properties, by name. Its box holds one text per field: `deviceFieldCount`
    /// checks that this list has them all.
    static let deviceFields: [(String, KeyPath<Device, String?> & Sendable)] = [
        ("name", \.name), ("manufacturer", \.manufacturer), ("model", \.model), ("hardwareVersion", \.hardwareVersion),
        ("firmwareVersion", \.firmwareVersion), ("softwareVersion", \.softwareVersion), ("localIdentifier", \.localIdentifier),
        ("udiDeviceIdentifier", \.udiDeviceIdentifier), ("creationDate", \.creationDate),
        ("unparsedDescription", \.unparsedDescription),
    ]

    // MARK: Objects with every field set

    /// Every free field gets a value found nowhere else (a marker), so its presence in an
    /// output is that field's; fields whose values are names HealthKit fixes (types, units,
    /// kinds) get real ones.
    final class Markers {
        var strings: [(field: String, text: String)] = []
        var numbers: [(field: String, text: String)] = []
        var dates: [(field: String, timestamp: ExportTimestamp)] = []
        private var next = 100

        func text(_ field: String) -> String {
            next += 1
            let text = "zq\(next)q"
            strings.append((field, text))
            return text
        }

        func number(_ field: String) -> ExportNumber {
            next += 1
            let text = "\(next)1.25"
            numbers.append((field, text))
            return ExportNumber.parse(text)!
        }

        func integer(_ field: String) -> Int {
            next += 1
            numbers.append((field, "\(next)7"))
            return Int("\(next)7")!
        }

        func date(_ field: String) -> ExportTimestamp {
            next += 1
            let timestamp = ExportTimestamp(secondsSince1970: 1_700_000_000 + Int64(next) * 3_607, utcOffsetSeconds: 3600)
            dates.append((field, timestamp))
            return timestamp
        }

        func quantity(_ field: String, unit: String) -> Quantity { Quantity(value: number(field), unit: unit) }

        func extensions(_ field: String) -> Extensions {
            Extensions(attributes: [GenericAttribute(name: "futureAttribute", value: text(field))])
        }

        func metadata(_ field: String) -> Metadata {
            Metadata([MetadataEntry(key: "HKExternalUUID", value: .string(text(field)))])
        }

        private var devices = 0

        /// A parsed device; the first one asked for is a text that is not a device description
        /// (`unparsedDescription`), which writers print instead of the parsed fields.
        func device(_ field: String) -> Device {
            devices += 1
            if devices == 1 { return Device(unparsedDescription: text("Device.unparsedDescription")) }
            return Device(
                name: text("Device.name"), manufacturer: text("Device.manufacturer"), model: text("Device.model"),
                hardwareVersion: text("Device.hardwareVersion"), firmwareVersion: text("Device.firmwareVersion"),
                softwareVersion: text("Device.softwareVersion"), localIdentifier: text("Device.localIdentifier"),
                udiDeviceIdentifier: text("Device.udiDeviceIdentifier"), creationDate: text("Device.creationDate"))
        }

        func sample(_ type: String) -> SampleAttributes { sample(ObjectType(recordType: type)) }

        func sample(_ type: ObjectType) -> SampleAttributes {
            // The bundle identifier, product type and system version stay nil: no export holds
            // them (`neverSet`).
            let revision = SourceRevision(source: Source(name: text("Source.name")), version: text("SourceRevision.version"))
            return SampleAttributes(
                sampleType: type, sourceRevision: revision, device: device("SampleAttributes.device"),
                creationDate: date("SampleAttributes.creationDate"), startDate: date("SampleAttributes.startDate"),
                endDate: date("SampleAttributes.endDate"), metadata: metadata("SampleAttributes.metadata"),
                extensions: extensions("SampleAttributes.extensions"))
        }
    }

    /// One object of each kind, and a header, with every field set.
    static func fullObjects(_ m: Markers) -> (objects: [HealthObject], header: ExportHeader) {
        let heartRate = QuantitySample(
            sample: m.sample("HKQuantityTypeIdentifierHeartRateVariabilitySDNN"), quantity: m.quantity("Quantity.value", unit: "ms"),
            count: m.integer("QuantitySample.count"),
            instantaneousBeatsPerMinute: [
                InstantaneousBeatsPerMinute(
                    bpm: m.number("InstantaneousBeatsPerMinute.bpm"), time: m.text("InstantaneousBeatsPerMinute.time"),
                    date: m.date("InstantaneousBeatsPerMinute.date"), hundredths: 42),
            ])
        let sleep = CategorySample(sample: m.sample("HKCategoryTypeIdentifierSleepAnalysis"), value: CategoryValue.interpret("HKCategoryValueSleepAnalysisAsleepREM"))
        let pressure = Correlation(
            sample: m.sample("HKCorrelationTypeIdentifierBloodPressure"),
            objects: [
                .quantity(QuantitySample(sample: m.sample("HKQuantityTypeIdentifierBloodPressureSystolic"), quantity: m.quantity("Quantity.value", unit: "mmHg"))),
                .category(CategorySample(sample: m.sample("HKCategoryTypeIdentifierMindfulSession"), value: CategoryValue(rawValue: 0, name: nil))),
            ])
        var statistics = WorkoutStatistics(
            quantityType: ObjectType(recordType: "HKQuantityTypeIdentifierActiveEnergyBurned"), startDate: m.date("WorkoutStatistics.startDate"),
            endDate: m.date("WorkoutStatistics.endDate"), average: m.number("WorkoutStatistics.average"), minimum: m.number("WorkoutStatistics.minimum"),
            maximum: m.number("WorkoutStatistics.maximum"), sum: m.number("WorkoutStatistics.sum"), unit: "kcal",
            extensions: m.extensions("WorkoutStatistics.extensions"))
        let event = WorkoutEvent(
            type: WorkoutEventType(name: "HKWorkoutEventTypeSegment"), date: m.date("WorkoutEvent.date"),
            duration: m.quantity("WorkoutEvent.duration", unit: "min"), metadata: m.metadata("WorkoutEvent.metadata"),
            extensions: m.extensions("WorkoutEvent.extensions"))
        let activity = WorkoutActivity(
            uuid: m.text("WorkoutActivity.uuid"), startDate: m.date("WorkoutActivity.startDate"), endDate: m.date("WorkoutActivity.endDate"),
            duration: m.quantity("WorkoutActivity.duration", unit: "min"), metadata: m.metadata("WorkoutActivity.metadata"),
            workoutEvents: [event], statistics: [statistics], extensions: m.extensions("WorkoutActivity.extensions"))
        statistics.extensions = m.extensions("WorkoutStatistics.extensions")
        let location = RouteLocation(
            date: m.date("RouteLocation.date"), latitude: m.number("RouteLocation.latitude"), longitude: m.number("RouteLocation.longitude"),
            altitude: m.number("RouteLocation.altitude"), horizontalAccuracy: m.number("RouteLocation.horizontalAccuracy"),
            verticalAccuracy: m.number("RouteLocation.verticalAccuracy"), course: m.number("RouteLocation.course"), speed: m.number("RouteLocation.speed"))
        let workout = Workout(
            sample: m.sample(.workout), workoutActivityType: WorkoutActivityType(name: "HKWorkoutActivityTypeRunning"),
            duration: m.quantity("Workout.duration", unit: "min"), totalDistance: m.quantity("Workout.totalDistance", unit: "km"),
            totalEnergyBurned: m.quantity("Workout.totalEnergyBurned", unit: "kcal"), workoutEvents: [event], workoutActivities: [activity],
            statistics: [statistics],
            routes: [WorkoutRoute(sample: m.sample(.workoutRoute), fileReference: "/workout-routes/\(m.text("WorkoutRoute.fileReference")).gpx", locations: [location])])
        var summary = ActivitySummary()
        summary.dateComponents = CalendarDate(year: 2023, month: 7, day: 14)
        summary.activeEnergyBurned = m.number("ActivitySummary.activeEnergyBurned")
        summary.activeEnergyBurnedGoal = m.number("ActivitySummary.activeEnergyBurnedGoal")
        summary.activeEnergyBurnedUnit = "Cal"
        summary.appleMoveTime = m.number("ActivitySummary.appleMoveTime")
        summary.appleMoveTimeGoal = m.number("ActivitySummary.appleMoveTimeGoal")
        summary.appleExerciseTime = m.number("ActivitySummary.appleExerciseTime")
        summary.appleExerciseTimeGoal = m.number("ActivitySummary.appleExerciseTimeGoal")
        summary.appleStandHours = m.number("ActivitySummary.appleStandHours")
        summary.appleStandHoursGoal = m.number("ActivitySummary.appleStandHoursGoal")
        summary.extensions = m.extensions("ActivitySummary.extensions")
        var record = ClinicalRecord(fhirResourceType: "Observation")
        record.identifier = m.text("ClinicalRecord.identifier")
        record.sourceName = m.text("ClinicalRecord.sourceName")
        record.sourceURL = "https://\(m.text("ClinicalRecord.sourceURL")).example"
        record.fhirVersion = "4.0.1"
        record.receivedDate = m.date("ClinicalRecord.receivedDate")
        record.resourceFilePath = "/clinical-records/\(m.text("ClinicalRecord.resourceFilePath")).json"
        record.extensions = m.extensions("ClinicalRecord.extensions")
        var point = SensitivityPoint()
        point.frequency = m.quantity("SensitivityPoint.frequency", unit: "Hz")
        point.leftEarSensitivity = m.quantity("SensitivityPoint.leftEarSensitivity", unit: "dBHL")
        point.rightEarSensitivity = m.quantity("SensitivityPoint.rightEarSensitivity", unit: "dBHL")
        point.leftEarMasked = true
        point.rightEarMasked = false
        point.leftEarClampingRangeLowerBound = m.number("SensitivityPoint.leftEarClampingRangeLowerBound")
        point.leftEarClampingRangeUpperBound = m.number("SensitivityPoint.leftEarClampingRangeUpperBound")
        point.rightEarClampingRangeLowerBound = m.number("SensitivityPoint.rightEarClampingRangeLowerBound")
        point.rightEarClampingRangeUpperBound = m.number("SensitivityPoint.rightEarClampingRangeUpperBound")
        point.extensions = m.extensions("SensitivityPoint.extensions")
        let audiogram = Audiogram(sample: m.sample(.audiogram), sensitivityPoints: [point])
        func lens(_ eye: String) -> LensSpecification {
            var lens = LensSpecification()
            lens.sphere = m.quantity("LensSpecification.sphere", unit: "D")
            lens.cylinder = m.quantity("LensSpecification.cylinder", unit: "D")
            lens.axis = m.quantity("LensSpecification.axis", unit: "deg")
            lens.addPower = m.quantity("LensSpecification.addPower", unit: "D")
            lens.vertexDistance = m.quantity("LensSpecification.vertexDistance", unit: "mm")
            lens.prismAmount = m.quantity("LensSpecification.prismAmount", unit: "D")
            lens.prismAngle = m.quantity("LensSpecification.prismAngle", unit: "deg")
            lens.farPupillaryDistance = m.quantity("LensSpecification.farPupillaryDistance", unit: "mm")
            lens.nearPupillaryDistance = m.quantity("LensSpecification.nearPupillaryDistance", unit: "mm")
            lens.baseCurve = m.quantity("LensSpecification.baseCurve", unit: "mm")
            lens.diameter = m.quantity("LensSpecification.diameter", unit: "mm")
            lens.extensions = m.extensions("LensSpecification.extensions")
            return lens
        }
        var prescription = VisionPrescription()
        prescription.prescriptionType = "contacts"
        prescription.dateIssued = m.date("VisionPrescription.dateIssued")
        prescription.expirationDate = m.date("VisionPrescription.expirationDate")
        prescription.brand = m.text("VisionPrescription.brand")
        prescription.rightEye = lens("right")
        prescription.leftEye = lens("left")
        prescription.attachments = [m.text("VisionPrescription.attachments")]
        prescription.metadata = m.metadata("VisionPrescription.metadata")
        prescription.extensions = m.extensions("VisionPrescription.extensions")
        var ecg = Electrocardiogram(file: "/electrocardiograms/\(m.text("Electrocardiogram.file")).csv")
        ecg.recordedDate = m.date("Electrocardiogram.recordedDate")
        ecg.classification = "Sinus Rhythm"
        ecg.classificationRawValue = 1
        ecg.symptoms = m.text("Electrocardiogram.symptoms")
        ecg.softwareVersion = m.text("Electrocardiogram.softwareVersion")
        ecg.device = m.text("Electrocardiogram.device")
        ecg.samplingFrequency = 512
        ecg.lead = "Lead I"
        ecg.unit = "µV"
        ecg.voltages = [Double(m.integer("Electrocardiogram.voltages"))]
        let unknown = UnknownObject(element: GenericElement(name: "FutureElement", attributes: [GenericAttribute(name: "value", value: m.text("UnknownObject.element"))]))
        var characteristics = Characteristics()
        characteristics.dateOfBirth = "1980-02-03"
        characteristics.biologicalSex = "HKBiologicalSexFemale"
        characteristics.bloodType = "HKBloodTypeONegative"
        characteristics.fitzpatrickSkinType = "HKFitzpatrickSkinTypeIII"
        characteristics.cardioFitnessMedicationsUse = "HKCardioFitnessMedicationsUseBetaBlocker"
        characteristics.other = [GenericAttribute(name: "HKFutureCharacteristic", value: m.text("Characteristics.other"))]
        let header = ExportHeader(
            locale: "fr_FR", exportDate: m.date("ExportHeader.exportDate"), exportVersion: 13, characteristics: characteristics,
            timeZone: m.text("ExportHeader.timeZone"),
            healthConnectPriority: HealthConnectPriority(apps: [.activity: [m.text("HealthConnectPriority.apps")]]),
            personID: m.text("ExportHeader.personID"))
        let objects: [HealthObject] = [
            .quantitySample(heartRate), .categorySample(sleep), .correlation(pressure), .workout(workout), .activitySummary(summary),
            .clinicalRecord(record), .audiogram(audiogram), .visionPrescription(prescription), .electrocardiogram(ecg), .unknown(unknown),
        ]
        return (objects, header)
    }

    static func census(_ objects: [HealthObject], _ header: ExportHeader) -> Census {
        var census = Census()
        for object in objects { walk(object, path: "", into: &census) }
        walk(header, path: ".export", into: &census)
        return census
    }

    @Test func deviceFieldCount() {
        // The box's texts, one per field, counted by reflection.
        let device = Device(name: "x")
        let storage = Mirror(reflecting: device).children.first { $0.label == "storage" }?.value
        let fields = storage.flatMap { Mirror(reflecting: $0).children.first { $0.label == "fields" }?.value as? [String?] }
        #expect(fields?.count == Self.deviceFields.count, "Device has a field this test does not name")
    }

    @Test func theObjectsHereSetEveryStoredPropertyOfTheModel() {
        let markers = Markers()
        let (objects, header) = Self.fullObjects(markers)
        let census = Self.census(objects, header)
        // Reflection reached the kinds and the nested types (so the walk itself works).
        for field in ["QuantitySample.quantity", "Workout.routes", "RouteLocation.latitude", "Device.name", "SensitivityPoint.frequency",
                      "LensSpecification.sphere", "Characteristics.dateOfBirth", "ClinicalRecord.fhirResourceType", "WorkoutActivity.statistics"] {
            #expect(census.declared.contains(field), "reflection did not reach \(field)")
        }
        #expect(census.declared.count > 100)
        let missing = census.declared.subtracting(census.populated).subtracting(Self.neverSet.keys).sorted()
        #expect(missing.isEmpty, "fullObjects sets no value for \(missing): set one")
        for field in Self.neverSet.keys { #expect(census.declared.contains(field), "neverSet names \(field), which the model no longer has") }
    }

    /// Properties kept for HealthKit's shape that no export holds, so healthport leaves them nil
    /// (`SourceRevision.swift`) and no format writes them.
    static let neverSet: [Field: String] = [
        "Source.bundleIdentifier": "not in Apple's exports, and healthport never invents one (a Health Connect record's package name, which no format writes)",
        "SourceRevision.productType": "not exported",
        "SourceRevision.operatingSystemVersion": "not exported",
    ]

    /// JSON: each object reads back as itself, so no field is dropped on the way out or in.
    @Test func jsonWritesAndReadsEveryField() throws {
        let (objects, _) = Self.fullObjects(Markers())
        let writer = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
        for object in objects {
            let decoded = try ObjectDecoder.decode(Array(try writer.encode(object).dropLast()))
            #expect(decoded == object, "\(object.kindName)")
        }
    }

    /// The fields none of whose markers is in `text` (a field has a marker per object that sets
    /// it: the format has a place for it when one is found), less `except`.
    static func missingMarkers(in text: String, _ markers: Markers, except: [String: String]) -> [String] {
        let iso = ISO8601DateFormatter()
        iso.timeZone = TimeZone(secondsFromGMT: 3600)
        iso.formatOptions = [.withInternetDateTime]
        let apple = DateFormatter()
        apple.locale = Locale(identifier: "en_US_POSIX")
        apple.timeZone = TimeZone(secondsFromGMT: 3600)
        apple.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        var found = Set<String>()
        var all = Set<String>()
        for (field, marker) in markers.strings + markers.numbers {
            all.insert(field)
            if text.contains(marker) { found.insert(field) }
        }
        for (field, timestamp) in markers.dates {
            all.insert(field)
            let date = Date(timeIntervalSince1970: TimeInterval(timestamp.secondsSince1970))
            if text.contains(iso.string(from: date)) || text.contains(apple.string(from: date)) { found.insert(field) }
        }
        return all.subtracting(found).filter { field in
            except[field] == nil && except[String(field.split(separator: ".").first ?? "")] == nil
        }.sorted()
    }

    /// Apple's export: every field it has a place for is written.
    @Test func appleExportWritesEveryFieldItHasAPlaceFor() throws {
        let markers = Markers()
        let (objects, header) = Self.fullObjects(markers)
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        let writer = ExportXMLWriter(file: try AtomicFile(destination: url.path))
        try writer.begin(header)
        for object in objects { try writer.write(object) }
        try writer.finish()
        let missing = Self.missingMarkers(in: try String(contentsOf: url, encoding: .utf8), markers, except: Self.notInAppleExport)
        #expect(missing.isEmpty, "not in Apple's export: \(missing)")
    }

    /// What Apple's `export.xml` has no place for (docs/reference/export-format.md), and why.
    static let notInAppleExport: [String: String] = [
        "Electrocardiogram": "an ECG is a CSV file of its own in the archive (electrocardiograms/), not an element of export.xml",
        "InstantaneousBeatsPerMinute.date": "written as the beat's `time` of day only; the reader derives the date from it and the sample",
        "ExportHeader.timeZone": "healthport's own: the zone its outputs' local times are in; Apple's export has no such field",
        "HealthConnectPriority": "a Health Connect export's priority list (docs/health-connect.md); Apple's export has no such field",
        "ExportHeader.personID": "the gate's name for the person (FHIR's Patient id, Open mHealth's user_id); Apple's export names no one",
    ]

    // MARK: Tables

    /// What the tables (CSV, and Parquet from the same `TableRows`) leave out, and why.
    static let notInTables: [String: String] = [
        "Electrocardiogram": "no table: ECGs are written as JSON only, a voltage array has no flat row (TableRouting)",
        "InstantaneousBeatsPerMinute.date": "the beat's date is printed with its hundredths (checked below)",
        "HealthConnectPriority": "the header's priority list, which decides totals; no sample's row holds it",
        "ExportHeader.personID": "the gate's name for the person, which FHIR's Patient and Open mHealth's user_id carry; in a lake the person is the partition (person=…)",
    ]

    @Test func everyFieldHasAColumnInTheTables() throws {
        let markers = Markers()
        let (objects, header) = Self.fullObjects(markers)
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("csv")
        let writer = try CSVWriter(folder: folder.path)
        try writer.begin(header)
        for object in objects { try writer.write(object) }
        try writer.finish()
        var text = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".csv") {
            text += try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        let missing = Self.missingMarkers(in: text, markers, except: Self.notInTables)
        #expect(missing.isEmpty, "not in the tables: \(missing)")
        #expect(text.contains(".42+01:00"), "the beat's hundredths")
        let marked = Set(markers.strings.map(\.field) + markers.numbers.map(\.field) + markers.dates.map(\.field))
        for field in Self.notInTables.keys {
            #expect(marked.contains(field) || marked.contains { $0.hasPrefix(field + ".") }, "notInTables names \(field), which nothing marks")
        }
    }

    // MARK: Predicates

    /// Types whose properties no predicate names, and why: HealthKit's key paths are a fixed
    /// set over objects (healthkit-predicates(7)), and healthport adds only the extensions that
    /// page documents.
    static let typesNotInPredicates: [String: String] = [
        "ExportHeader": "the export's header is not an object a predicate selects",
        "Characteristics": "characteristics are the header's, read with `healthport info`, not objects",
        "HealthConnectPriority": "a Health Connect export's priority list is the header's, not an object a predicate selects",
        "InstantaneousBeatsPerMinute": "a part of a heartbeat series sample; HealthKit's key paths do not reach into it",
        "RouteLocation": "a point of a route; HealthKit's key paths do not reach into routes",
        "SensitivityPoint": "a point of an audiogram; HealthKit's key paths do not reach into it",
        "LensSpecification": "an eye of a prescription; HealthKit has no key path for it",
        "Electrocardiogram": "HealthKit's ECG key paths (average heart rate, classification, symptoms) are not supported yet; its date is the sample's",
        "WorkoutStatistics": "a workout's statistics are reached by `statistics.quantityType` only",
        "WorkoutEvent": "a workout's events are reached by `workoutEvents.type` and `workoutEvents.@count` only",
        "WorkoutRoute": "a route is reached through its workout",
    ]

    /// Single properties no predicate names, and why.
    static let notInPredicates: [Field: String] = [
        "Quantity.unit": "a predicate compares a quantity in any unit of its dimension, never the unit's text",
        "ActivitySummary.activeEnergyBurnedUnit": "the unit of activeEnergyBurned, compared as a quantity",
        "Device.unparsedDescription": "the device text when it is not a device description; device.* name parsed fields",
        "Device.creationDate": "printed in the device text since 2024, not an HKDevice property",
        "ClinicalRecord.resourceFilePath": "where the export keeps the resource's file, not a HealthKit property",
        "ClinicalRecord.sourceName": "matched by `source`",
        "Correlation.objects": "HealthKit has no key path for a correlation's members",
        "VisionPrescription.attachments": "attachment names, not a HealthKit property",
        "WorkoutActivity.startDate": "a workout's activities are reached by `workoutActivities.uuid` and `.@count` only",
        "WorkoutActivity.endDate": "as startDate",
        "WorkoutActivity.duration": "as startDate",
        "WorkoutActivity.metadata": "as startDate",
        "WorkoutActivity.workoutEvents": "as startDate",
        "WorkoutActivity.statistics": "as startDate",
    ]

    /// Properties whose key path is spelled otherwise than their path (HealthKit's names).
    static let keyPathSpellings: [Field: String] = [
        "ClinicalRecord.fhirResourceType": "fhirResource.resourceType",
        "ClinicalRecord.identifier": "fhirResource.identifier",
        "ClinicalRecord.fhirVersion": "fhirResource.fhirVersion",
        "ClinicalRecord.sourceURL": "fhirResource.sourceURL",
        "ClinicalRecord.receivedDate": "startDate",
        "ClinicalRecord.clinicalType": "clinicalType",
        "SampleAttributes.metadata": "metadata.HKExternalUUID",
        "VisionPrescription.metadata": "metadata.HKExternalUUID",
        "UnknownObject.element": "element.name",
        "QuantitySample.count": "count",
        "CategorySample.value": "value",
    ]

    @Test func everyPropertyIsKnownToThePredicatesOrSaysWhyNot() {
        let (objects, header) = Self.fullObjects(Markers())
        let census = Self.census(objects, header)
        var missing: [String] = []
        let kinds: Set<String> = ["quantitySample", "categorySample", "correlation", "workout", "activitySummary", "clinicalRecord", "audiogram",
                                  "visionPrescription", "electrocardiogram", "unknown", "sample"]
        for field in census.declared.sorted() where Self.notInPredicates[field] == nil && Self.neverSet[field] == nil && !census.containers.contains(field)
            // What an element carried beyond the model has no key path: it is no HealthKit property.
            && !field.hasSuffix(".extensions") {
            let typeName = String(field.split(separator: ".").first ?? "")
            guard Self.typesNotInPredicates[typeName] == nil else { continue }
            let label = String(field.split(separator: ".").last ?? "")
            let candidates = [label, "device.\(label)", Self.keyPathSpellings[field] ?? label] + (census.paths[field] ?? []).map { path in
                path.split(separator: ".").drop { kinds.contains(String($0)) }.joined(separator: ".")
            }
            if !candidates.contains(where: { PredicateKeyPath.resolve($0) != nil }) { missing.append(field) }
        }
        #expect(missing.isEmpty, "no key path for \(missing.count): \(missing.joined(separator: ", "))")
        for field in Self.notInPredicates.keys { #expect(census.declared.contains(field), "notInPredicates names \(field), which the model no longer has") }
        let types = Set(census.declared.map { String($0.split(separator: ".").first ?? "") })
        for type in Self.typesNotInPredicates.keys { #expect(types.contains(type), "typesNotInPredicates names \(type), which the model no longer has") }
    }
}
