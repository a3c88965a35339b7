import Foundation
import Testing
import HealthModel
@testable import HealthQuery

@Suite struct PolicyFileTests {
    func write(_ json: String) throws -> String {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("policy-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test(arguments: [
        ("{", "not valid JSON"), ("{\"version\": 2, \"consumer\": {\"name\": \"x\"}}", "unsupported policy version"),
        ("{\"version\": 1}", "missing \"consumer\""),
        ("{\"version\": 1, \"consumer\": {\"name\": \"x\"}, \"read\": {\"Stepcounts\": \"granted\"}}", "unknown type"),
        ("{\"version\": 1, \"consumer\": {\"name\": \"x\"}, \"read\": {\"StepCount\": \"maybe\"}}", "invalid value at read.StepCount"),
        ("{\"version\": 1, \"consumer\": {\"name\": \"x\"}, \"read\": {\"VisionPrescription\": \"granted\"}}", "put it under perObject"),
        ("{\"version\": 1, \"consumer\": {\"name\": \"x\"}, \"share\": {\"ActivitySummary\": \"sharingAuthorized\"}}", "read-only"),
        ("{\"version\": 1, \"consumer\": {\"name\": \"x\"}, \"read\": {\"BloodPressure\": \"granted\"}}", "member types"),
        ("{\"version\": 1, \"consumer\": {\"name\": \"x\"}, \"perObject\": {\"StepCount\": {\"granted\": [], \"revokedOwn\": []}}}", "not authorized object by object"),
        ("{\"version\": 1, \"consumer\": {\"name\": \"x\"}, \"perObject\": {\"VisionPrescription\": {\"granted\": [\"nope\"], \"revokedOwn\": []}}}", "not a uuid"),
    ])
    func invalidPoliciesAreClearErrors(json: String, message: String) throws {
        let path = try write(json)
        do {
            _ = try AuthorizationPolicy.load(from: path)
            Issue.record("expected an error")
        } catch let error as PolicyFileError {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.path == path)
        }
    }

    @Test func theFileBytesReadBackAsThePolicy() throws {
        var policy = AuthorizationPolicy(consumer: .init(name: "Study", bundleIdentifier: "org.example"), ownSources: ["App"])
        policy.read["HKQuantityTypeIdentifierStepCount"] = .granted
        policy.share["HKQuantityTypeIdentifierBodyMass"] = .sharingDenied
        policy.perObject["HKVisionPrescriptionTypeIdentifier"] = .init(granted: ["00000000-0000-8000-8000-000000000001"])
        let path = NSTemporaryDirectory() + "policy-\(UUID().uuidString).json"
        try Data(try policy.fileBytes()).write(to: URL(fileURLWithPath: path))
        #expect(try AuthorizationPolicy.load(from: path) == policy)
    }
}

@Suite struct PolicyEnforcementTests {
    func policy(_ configure: (inout AuthorizationPolicy) -> Void) -> PolicyEnforcer {
        var policy = AuthorizationPolicy(consumer: .init(name: "Study"), ownSources: ["Study App"])
        configure(&policy)
        return PolicyEnforcer(policy)
    }

    @Test func readDecisionsWithHiddenDenial() {
        let enforcer = policy {
            $0.read["HKQuantityTypeIdentifierHeartRate"] = .granted
            $0.read["HKQuantityTypeIdentifierBodyMass"] = .denied
        }
        #expect(enforcer.admits(Sample.quantity("HKQuantityTypeIdentifierHeartRate")))
        #expect(!enforcer.admits(Sample.quantity("HKQuantityTypeIdentifierBodyMass", unit: "kg")))
        #expect(enforcer.admits(Sample.quantity("HKQuantityTypeIdentifierBodyMass", unit: "kg", source: "Study App")))
        #expect(!enforcer.admits(Sample.quantity("HKQuantityTypeIdentifierStepCount", unit: "count")))
    }

    /// Own sources match by normalized name (case, typographic apostrophes, no-break spaces,
    /// composed or decomposed accents) among ten thousand of them, and a policy changed after
    /// use matches its new sources: the normalized set is computed once per policy and shared
    /// by its copies, never stale.
    @Test func ownSourcesMatchByNormalizedNameAmongThousands() {
        var many = (0..<10_000).map { "Source \($0) " + String(repeating: "x", count: 200) }
        many += ["simon's iphone", "Café\u{00A0}Tracker", "ÉTUDE", "Nicolás’ Watch"]
        var policy = AuthorizationPolicy(consumer: .init(name: "Study"), ownSources: many)
        policy.read["HKQuantityTypeIdentifierBodyMass"] = .denied
        let enforcer = PolicyEnforcer(policy)
        func own(_ source: String) -> Bool {
            enforcer.admits(Sample.quantity("HKQuantityTypeIdentifierBodyMass", unit: "kg", source: source))
        }
        #expect(own("Simon’s iPhone"))
        #expect(own("SIMON‘S IPHONE"))
        #expect(own("café tracker"))
        #expect(own("Cafe\u{0301}\u{202F}TRACKER"))
        #expect(own("E\u{0301}tude"))
        #expect(own("nicolás' watch"))
        #expect(own("source 9999 " + String(repeating: "X", count: 200)))
        #expect(!own("Source 10000 " + String(repeating: "x", count: 200)))
        #expect(!own("Simon’s iPad"))
        #expect(!own("Cafe Tracker"))

        var copy = policy
        #expect(copy.normalizedOwnSources.count == many.count)
        copy.ownSources = ["Other App"]
        #expect(PolicyEnforcer(copy).admits(Sample.quantity("HKQuantityTypeIdentifierBodyMass", unit: "kg", source: "OTHER APP")))
        #expect(!PolicyEnforcer(copy).admits(Sample.quantity("HKQuantityTypeIdentifierBodyMass", unit: "kg", source: "Simon’s iPhone")))
        #expect(own("Simon’s iPhone"))
        #expect(copy != policy)
        copy.ownSources = many
        #expect(copy == policy)
    }

    /// The quick normalization is `SourceName.normalized` on every kind of name.
    @Test(arguments: [
        "iPhone", "apple watch", "APPLE WATCH", "", "Simon’s iPhone", "Simon‘s", "a\u{00A0}b", "a\u{202F}b", "É", "E\u{0301}",
        "’\u{0301}x", "\u{00A0}\u{0301}", "İstanbul", "STRASSE", "Straße", "ΟΔΟΣ", "ǅ", "ﬀ", "Ⅻ", "x\u{0308}\u{0301}", "한국어",
        "\u{1100}\u{1161}\u{11A8}", "👩‍👩‍👧", "A\u{0000}B", "tab\tname", "Ω", "Å", "\u{212B}",
    ])
    func quickNormalizationEqualsTheReference(name: String) {
        #expect(SourceName.normalizedQuickly(name) == SourceName.normalized(name))
        #expect(Array(SourceName.normalizedQuickly(name).utf8) == Array(SourceName.normalized(name).utf8))
    }

    @Test func readSinceHasStrictStartSemanticsButOwnObjectsStay() {
        let enforcer = policy {
            $0.read["HKQuantityTypeIdentifierHeartRate"] = .granted
            $0.readSince["HKQuantityTypeIdentifierHeartRate"] = "2024-01-01T10:00:00Z"
        }
        #expect(enforcer.admits(Sample.quantity(start: "2024-01-01 10:00:00 +0000")))
        #expect(!enforcer.admits(Sample.quantity(start: "2024-01-01 09:59:59 +0000", end: "2024-01-01 11:00:00 +0000")))
        #expect(enforcer.admits(Sample.quantity(start: "2024-01-01 09:00:00 +0000", source: "Study App")))
    }

    @Test func characteristicsOnlyWhenGranted() {
        var me = Characteristics()
        me.dateOfBirth = "1985-06-15"
        me.biologicalSex = "HKBiologicalSexFemale"
        let header = ExportHeader(locale: "en_US", characteristics: me)
        func seen(types: Set<String>? = nil, _ configure: (inout AuthorizationPolicy) -> Void) -> ExportHeader {
            var query = ObjectQuery(types: types)
            var policy = AuthorizationPolicy(consumer: .init(name: "Study"))
            configure(&policy)
            query.policy = policy
            return QueryExecutor(query).header(header)
        }
        // Left out, characteristics look unset: the header keeps an empty set (Apple's format
        // writes an empty `Me`; the others write nothing).
        let none = seen { _ in }
        #expect(none.characteristics == Characteristics())
        #expect(none.locale == "en_US")
        let sex = seen { $0.read["HKCharacteristicTypeIdentifierBiologicalSex"] = .granted }
        #expect(sex.characteristics?.biologicalSex == "HKBiologicalSexFemale")
        #expect(sex.characteristics?.dateOfBirth == nil)
        // Granted but not named by the type filter: left out (issue 36, 5).
        let unnamed = seen(types: ["HKQuantityTypeIdentifierStepCount"]) { $0.read["HKCharacteristicTypeIdentifierBiologicalSex"] = .granted }
        #expect(unnamed.characteristics == Characteristics())
        // The owner's type filter alone decides.
        #expect(QueryExecutor(ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"])).header(header).characteristics?.isEmpty == true)
        #expect(QueryExecutor(ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"])).header(ExportHeader()).characteristics == nil)
        #expect(QueryExecutor(ObjectQuery(types: ["HKCharacteristicTypeIdentifierDateOfBirth"])).header(header).characteristics?.dateOfBirth == "1985-06-15")
        #expect(QueryExecutor(ObjectQuery()).header(header).characteristics == me)
    }

    @Test func correlationsShowOnlyReadableMembers() throws {
        let t = ExportTimestamp.parse("2024-01-01 08:00:00 +0000")!
        func member(_ type: String) -> CorrelatedSample {
            .quantity(QuantitySample(
                sample: SampleAttributes(sampleType: ObjectType(recordType: type), sourceRevision: SourceRevision(source: Source(name: "Cuff")), startDate: t, endDate: t),
                quantity: Quantity(value: ExportNumber(120), unit: "mmHg")))
        }
        let correlation = HealthObject.correlation(Correlation(
            sample: SampleAttributes(sampleType: ObjectType(recordType: "HKCorrelationTypeIdentifierBloodPressure"), sourceRevision: SourceRevision(source: Source(name: "Cuff")), startDate: t, endDate: t),
            objects: [member("HKQuantityTypeIdentifierBloodPressureSystolic"), member("HKQuantityTypeIdentifierBloodPressureDiastolic")]))
        let enforcer = policy { $0.read["HKQuantityTypeIdentifierBloodPressureSystolic"] = .granted }
        #expect(enforcer.admits(correlation))
        guard case .correlation(let visible) = enforcer.redact(correlation) else {
            Issue.record("redacting a correlation gave something else than a correlation")
            return
        }
        #expect(visible.objects.count == 1)
        #expect(!policy { _ in }.admits(correlation))
    }

    @Test func perObjectTypesShowGrantedAndOwnUnlessRevoked() {
        var prescription = VisionPrescription(uuid: ObjectUUID(high: 1, low: 1))
        prescription.dateIssued = ExportTimestamp.parse("2024-01-01 08:00:00 +0000")
        let object = HealthObject.visionPrescription(prescription)
        #expect(!policy { _ in }.admits(object))
        #expect(policy { $0.perObject["HKVisionPrescriptionTypeIdentifier"] = .init(granted: [ObjectUUID(high: 1, low: 1).uuidString]) }.admits(object))
    }

    @Test func requestsAreValidatedAsHealthKitDoes() throws {
        #expect(throws: AuthorizationError.self) { try AuthorizationPolicy.validateRequest(share: ["HKActivitySummaryTypeIdentifier"], read: []) }
        #expect(throws: AuthorizationError.self) { try AuthorizationPolicy.validateRequest(share: [], read: ["HKVisionPrescriptionTypeIdentifier"]) }
        #expect(throws: AuthorizationError.self) { try AuthorizationPolicy.validateRequest(share: [], read: ["HKWorkoutRouteTypeIdentifier"]) }
        try AuthorizationPolicy.validateRequest(share: ["HKVisionPrescriptionTypeIdentifier"], read: ["HKWorkoutRouteTypeIdentifier", "HKWorkoutTypeIdentifier"])
        var policy = AuthorizationPolicy(consumer: .init(name: "x"))
        policy.read["HKQuantityTypeIdentifierStepCount"] = .denied
        #expect(!policy.shouldRequest(share: [], read: ["HKQuantityTypeIdentifierStepCount"]))
        #expect(policy.shouldRequest(share: ["HKQuantityTypeIdentifierStepCount"], read: []))
        #expect(policy.shareStatus(for: "HKQuantityTypeIdentifierStepCount") == .notDetermined)
        #expect(policy.shareStatus(for: "HKActivitySummaryTypeIdentifier") == .sharingDenied)
    }
}

/// A key twice in one object of a policy is refused: jq and Python read the last, Foundation
/// one of them, and a person checking the file must see what healthport enforces.
@Suite struct DuplicateJSONKeysTests {
    @Test func findsTheRepeatedKeyAndItsPosition() {
        let text = "{\"version\": 1,\n \"read\": {\"StepCount\": \"denied\", \"StepCount\": \"granted\"}}"
        let found = DuplicateJSONKeys.first(in: Array(text.utf8))
        #expect(found?.key == "StepCount")
        #expect(found?.line == 2 && found?.column == 34)
        // Escapes are decoded before comparing; equal keys in different objects are fine;
        // strings in arrays are values.
        #expect(DuplicateJSONKeys.first(in: Array(#"{"a": 1, "\u0061": 2}"#.utf8))?.key == "a")
        #expect(DuplicateJSONKeys.first(in: Array(#"{"a": {"a": 1}, "b": {"a": 2}, "c": ["a", "a"]}"#.utf8)) == nil)
        #expect(DuplicateJSONKeys.first(in: Array(#"{"x": "a\"b", "a\"b": 1, "y": [{"k": 1}, {"k": 2}]}"#.utf8)) == nil)
    }
}

