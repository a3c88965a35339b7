import Foundation
import Testing
@testable import HealthModel

/// What a new user runs into: types a person can name, values as Apple wrote them.
@Suite struct TypeNamesAndValuesTests {
    // MARK: Types a person can name (item 3)

    @Test(arguments: [
        ("Steps", "HKQuantityTypeIdentifierStepCount"),
        ("steps", "HKQuantityTypeIdentifierStepCount"),
        ("Sleep", "HKCategoryTypeIdentifierSleepAnalysis"),
        ("Weight", "HKQuantityTypeIdentifierBodyMass"),
        ("resting heart rate", "HKQuantityTypeIdentifierRestingHeartRate"),
        ("Resting Heart Rate", "HKQuantityTypeIdentifierRestingHeartRate"),
        ("resting heart", "HKQuantityTypeIdentifierRestingHeartRate"),
        ("heart rate", "HKQuantityTypeIdentifierHeartRate"),
        ("blood pressure", "HKCorrelationTypeIdentifierBloodPressure"),
        ("stand hours", "HKCategoryTypeIdentifierAppleStandHour"),
        ("water", "HKQuantityTypeIdentifierDietaryWater"),
        ("workouts", "HKWorkoutTypeIdentifier"),
        ("GAD-7", "HKScoredAssessmentTypeIdentifierGAD7"),
        ("vo2 max", "HKQuantityTypeIdentifierVO2Max"),
        ("HypertensionEvent", "HKCategoryTypeIdentifierHypertensionEvent"),
        // Names that worked before still do.
        ("StepCount", "HKQuantityTypeIdentifierStepCount"),
        ("stepcount", "HKQuantityTypeIdentifierStepCount"),
        ("HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierHeartRate"),
        ("HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent", "HKCategoryTypeIdentifierAudioExposureEvent"),
    ])
    func aNameAPersonUsesFindsItsType(name: String, identifier: String) {
        #expect(TypeCatalogue.match(typeName: name) == .type(identifier))
        #expect(TypeCatalogue.resolve(userTypeName: name) == identifier)
    }

    @Test func anyFullIdentifierIsTakenAsWritten() {
        // Types newer than healthport: read, written and counted, so they can be selected.
        #expect(TypeCatalogue.resolve(userTypeName: "HKQuantityTypeIdentifierFutureThing") == "HKQuantityTypeIdentifierFutureThing")
        #expect(TypeCatalogue.resolve(userTypeName: "HKDataTypeIdentifierStateOfMind") == "HKDataTypeIdentifierStateOfMind")
        #expect(TypeCatalogue.resolve(userTypeName: "HKMedicalTypeIdentifierX") == nil)
        #expect(TypeCatalogue.resolve(userTypeName: "HKQuantityTypeIdentifier") == nil)
        #expect(TypeCatalogue.resolve(userTypeName: "HKQuantityTypeIdentifier../x") == nil)
        #expect(TypeCatalogue.isFullIdentifier("HKScoredAssessmentTypeIdentifierPHQ9"))
    }

    @Test func aNameThatFitsSeveralTypesIsAmbiguous() {
        guard case .ambiguous(let temperatures) = TypeCatalogue.match(typeName: "temperature") else {
            Issue.record("temperature should fit several types")
            return
        }
        #expect(temperatures.contains("HKQuantityTypeIdentifierBodyTemperature") && temperatures.contains("HKQuantityTypeIdentifierWaterTemperature"))
        // A word four types hold is all four, however few words each leaves over: a person
        // who grants "energy" must not share their food log (DietaryEnergyConsumed, and Health
        // Connect's energy from fat) by a tie-break.
        #expect(TypeCatalogue.match(typeName: "energy") == .ambiguous([
            "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierBasalEnergyBurned",
            "HKQuantityTypeIdentifierDietaryEnergyConsumed", "HealthConnectDietaryEnergyFromFat",
        ]))
        // A type whose every word was typed still wins (Dietary is no one's left-over word).
        #expect(TypeCatalogue.match(typeName: "water") == .type("HKQuantityTypeIdentifierDietaryWater"))
        #expect(TypeCatalogue.match(typeName: "resting heart") == .type("HKQuantityTypeIdentifierRestingHeartRate"))
        #expect(TypeCatalogue.resolve(userTypeName: "temperature") == nil)
        guard case .ambiguous(let distances) = TypeCatalogue.match(typeName: "distance") else {
            Issue.record("distance should fit several types")
            return
        }
        #expect(distances.contains("HKQuantityTypeIdentifierDistanceCycling"))
        #expect(TypeCatalogue.match(typeName: "nothing like a type") == .none)
    }

    @Test func policiesTakeExactNamesOnly() {
        #expect(TypeCatalogue.resolve(exactTypeName: "Weight") == nil)
        #expect(TypeCatalogue.resolve(exactTypeName: "bodymass") == "HKQuantityTypeIdentifierBodyMass")
        #expect(TypeCatalogue.resolve(exactTypeName: "HKQuantityTypeIdentifierFutureThing") == "HKQuantityTypeIdentifierFutureThing")
    }

    @Test func theCatalogueHoldsHypertensionEventsAndTheKindsPassedThrough() {
        #expect(TypeCatalogue.entry(for: "HKCategoryTypeIdentifierHypertensionEvent")?.kind == .category)
        for identifier in [
            "HKDataTypeIdentifierHeartbeatSeries", "HKDataTypeIdentifierStateOfMind", "HKScoredAssessmentTypeIdentifierGAD7",
            "HKScoredAssessmentTypeIdentifierPHQ9",
        ] {
            #expect(TypeCatalogue.entry(for: identifier)?.kind == .other, "\(identifier)")
        }
        // Short names are the same rule for every prefix: GAD7, StateOfMind, HypertensionEvent.
        #expect(TypeCatalogue.shortName(of: "HKScoredAssessmentTypeIdentifierGAD7") == "GAD7")
        #expect(TypeCatalogue.shortName(of: "HKDataTypeIdentifierStateOfMind") == "StateOfMind")
        #expect(Set(TypeCatalogue.all.map(\.identifier)).count == TypeCatalogue.all.count)
    }

    @Test func wordsSplitAsPeopleReadThem() {
        #expect(TypeCatalogue.words(of: "RestingHeartRate") == ["resting", "heart", "rate"])
        #expect(TypeCatalogue.words(of: "VO2Max") == ["vo2", "max"])
        #expect(TypeCatalogue.words(of: "UVExposure") == ["uv", "exposure"])
        #expect(TypeCatalogue.words(of: "HeartRateVariabilitySDNN") == ["heart", "rate", "variability", "sdnn"])
        #expect(TypeCatalogue.words(of: "  steps, Sleep ") == ["step", "sleep"])
    }

    // MARK: Values as Apple wrote them (item 5)

    @Test func aMetadataKeyHasOneTypeWhateverItsValue() {
        // An app's key: its text, whatever it looks like.
        for text in ["1E10", "123E4567", "1234567890123456789", "12345", "0.5", "-3"] {
            #expect(MetadataValue.interpret(text, key: "com.example.id") == .string(text), "\(text)")
            #expect(MetadataValue.interpret(text, key: "HKExternalUUID") == .string(text), "\(text)")
        }
        // A key HealthKit stores as an NSNumber: a number, in either printed spelling.
        #expect(MetadataValue.interpret("1", key: "HKWasUserEntered") == .number(ExportNumber.parse("1")!))
        #expect(MetadataValue.interpret("2", key: "HKMetadataKeySyncVersion") == .number(ExportNumber.parse("2")!))
        #expect(MetadataValue.interpret("105.7867826223373", key: "HKSWOLFScore") == .number(ExportNumber.parse("105.7867826223373")!))
        // Dates and quantities as before.
        #expect(MetadataValue.interpret("2016-04-18 15:56:05 +0000", key: "Modified Date") == .date(ExportTimestamp.parse("2016-04-18 15:56:05 +0000")!))
        #expect(MetadataValue.interpret("50 m", key: "HKLapLength") == .quantity(Quantity(value: ExportNumber.parse("50")!, unit: "m")))
        // An earlier version's JSON number under an app's key reads as the string it is now.
        #expect(MetadataValue.number(ExportNumber.parse("12345")!).held(under: "Withings User Identifier") == .string("12345"))
    }

    @Test func typingNumbersByKeyKeepsEveryUUID() {
        // uuids were derived when an app's `12345` read as a number: the string it reads as now
        // must give the same uuid, or stores and anchors would see the object as replaced.
        func uuid(_ value: MetadataValue) -> ObjectUUID {
            var encoder = CanonicalEncoder()
            let start = ExportTimestamp(secondsSince1970: 1_700_000_000, utcOffsetSeconds: 3600)
            let attributes = SampleAttributes(
                sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierBodyMass"),
                sourceRevision: SourceRevision(source: Source(name: "Scale"), version: nil), device: nil, startDate: start,
                endDate: start, metadata: Metadata([MetadataEntry(key: "Withings User Identifier", value: value)]))
            let sample = QuantitySample(sample: attributes, quantity: Quantity(value: ExportNumber.parse("72")!, unit: "kg"))
            return ObjectIdentity.uuid(of: .quantitySample(sample), encoder: &encoder)
        }
        #expect(uuid(.string("12345")) == uuid(.number(ExportNumber.parse("12345")!)))
        #expect(uuid(.string("12345")) != uuid(.string("12346")))
        #expect(uuid(.string("1E10")) == uuid(.number(ExportNumber.parse("1E10")!)))
    }

    func route(_ start: Int64) -> WorkoutRoute {
        let date = ExportTimestamp(secondsSince1970: start, utcOffsetSeconds: 0)
        return WorkoutRoute(
            sample: SampleAttributes(
                sampleType: .workoutRoute, sourceRevision: SourceRevision(source: Source(name: "Watch"), version: "11"),
                device: nil, startDate: date, endDate: date),
            fileReference: "/workout-routes/route_\(start).gpx")
    }

    func workout(routes: [WorkoutRoute]) -> HealthObject {
        let start = ExportTimestamp(secondsSince1970: 1_700_000_000, utcOffsetSeconds: 0)
        return .workout(
            Workout(
                sample: SampleAttributes(
                    sampleType: .workout, sourceRevision: SourceRevision(source: Source(name: "Watch"), version: "11"), device: nil,
                    startDate: start, endDate: start),
                workoutActivityType: WorkoutActivityType(name: "HKWorkoutActivityTypeRunning"), routes: routes))
    }

    @Test func aRoutePrintedTwiceGetsTwoUUIDsAndTheFirstKeepsItsOwn() throws {
        var once = workout(routes: [route(1), route(2)])
        var twice = workout(routes: [route(1), route(1), route(2)])
        var a = ObjectIdentityAssigner()
        var b = ObjectIdentityAssigner()
        a.assign(&once)
        b.assign(&twice)
        guard case .workout(let single) = once, case .workout(let doubled) = twice else {
            Issue.record("assigning a workout's statistics gave something else than a workout")
            return
        }
        let singleUUIDs = single.routes.map(\.sample.uuid)
        let doubledUUIDs = doubled.routes.map(\.sample.uuid)
        #expect(Set(doubledUUIDs).count == 3, "two objects, one uuid: \(doubledUUIDs)")
        #expect(doubledUUIDs[0] == singleUUIDs[0])
        #expect(doubledUUIDs[2] == singleUUIDs[1])
    }

    @Test func audiogramMaskingIsTheBooleanHealthKitHolds() {
        #expect(SensitivityPoint.maskedFlag(exported: "1") == true)
        #expect(SensitivityPoint.maskedFlag(exported: "0") == false)
        #expect(SensitivityPoint.maskedFlag(exported: "yes") == nil)
        #expect(SensitivityPoint.exportedText(masked: true) == "1")
        #expect(SensitivityPoint.exportedText(masked: nil) == nil)
    }

    // MARK: Nothing invented for kinds healthport does not model (item 4)

    @Test func aPassedThroughRecordKeepsItsTypeAndDates() {
        var element = GenericElement(name: "Record")
        element.attributes = [
            GenericAttribute(name: "type", value: "HKDataTypeIdentifierStateOfMind"),
            GenericAttribute(name: "startDate", value: "2025-01-02 08:00:00 +0100"),
        ]
        let object = HealthObject.unknown(UnknownObject(element: element))
        #expect(object.objectType.identifier == "HKDataTypeIdentifierStateOfMind")
        #expect(object.objectType.kind == .other)
        #expect(object.startDate == ExportTimestamp.parse("2025-01-02 08:00:00 +0100"))
        #expect(object.endDate == object.startDate)
        let other = HealthObject.unknown(UnknownObject(element: GenericElement(name: "FutureElement")))
        #expect(other.objectType.identifier == "FutureElement")
        #expect(other.startDate == nil)
    }
}
