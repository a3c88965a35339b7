import Foundation
import Testing
import HealthExport
import HealthModel
import HealthTestSupport

@Suite struct QuirkAndFaultTests {
    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-01-01 10:00:00 +0100\"/>\n"
    static func record(_ extra: String = "", value: String = "72", start: String = "2024-01-01 09:00:00 +0100") -> String {
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"\(start)\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"\(value)\"\(extra)/>\n"
    }

    func expectError(_ xml: String, _ code: ExportError.Code, line: Int? = nil) throws {
        do {
            _ = try read(xml: xml)
            Issue.record("expected an error")
        } catch let error as ExportError {
            #expect(error.code == code, "\(error)")
            if let line { #expect(error.location?.line == line, "\(error)") }
            #expect(error.location?.file.hasSuffix("export.xml") == true)
        }
    }

    @Test func aBadDateIsALocatedError() throws {
        try expectError(Self.head + Self.record() + Self.record(start: "2023-13-01 08:00:00 +0100") + "</HealthData>\n", .invalidAttribute, line: 5)
    }

    @Test func aBadNumberIsALocatedError() throws {
        try expectError(Self.head + Self.record(value: "7,2") + "</HealthData>\n", .invalidAttribute, line: 4)
    }

    /// Errors say where, never what: a malformed value (health data) is not quoted.
    @Test func aBadValueIsNotQuotedInTheMessage() throws {
        for xml in [Self.head + Self.record(value: "96,5kg-secret") + "</HealthData>\n",
                    Self.head + Self.record(start: "2023-13-01 secret +0100") + "</HealthData>\n"] {
            do {
                _ = try read(xml: xml)
                Issue.record("expected an error")
            } catch let error as ExportError {
                #expect(!error.message.contains("secret") && !error.message.contains("96,5"), "\(error.message)")
                #expect(error.message.contains("not shown"))
            }
        }
    }

    @Test func truncatedXMLIsAnError() throws {
        let full = Self.head + Self.record() + Self.record() + "</HealthData>\n"
        try expectError(String(full.prefix(full.count - 40)), .malformedXML)
        // Cut inside an attribute, inside a tag and between elements: each says the file ends early.
        for (cut, line) in [(full.count - 40, 5), (full.count - 10, 6), (full.count - 15, 5)] {
            do {
                _ = try read(xml: String(full.prefix(cut)))
                Issue.record("expected an error at \(cut)")
            } catch let error as ExportError {
                #expect(error.message.contains("cut off"), "\(error)")
                #expect(error.location?.line == line, "\(error)")
            }
        }
        // A bad byte in a complete document is not called a cut.
        do {
            _ = try read(xml: Self.head + " <Record type=\"x\"\n</HealthData>\n")
            Issue.record("expected an error")
        } catch let error as ExportError {
            #expect(!error.message.contains("cut off"), "\(error)")
        }
    }

    @Test func mismatchedTagsAreAnErrorWithPosition() throws {
        try expectError(Self.head + " <Record type=\"x\" startDate=\"2024-01-01 09:00:00 +0100\">\n </Workout>\n</HealthData>\n", .malformedXML, line: 5)
    }

    /// An encoding other than UTF-8 is refused however the declaration is spaced: with tabs or
    /// line feeds, or with control characters the pre-filter makes spaces (which libxml2 then
    /// took as the declaration's white space and read the body as UTF-7).
    @Test func aDeclaredEncodingOtherThanUTF8IsRefusedHoweverItIsSpaced() throws {
        let body = "<HealthData locale=\"en_US\">\n" + Self.record() + "</HealthData>\n"
        for declaration in [
            "<?xml version=\"1.0\" encoding=\"UTF-7\"?>", "<?xml version=\"1.0\" encoding\t=\t'UTF-16'?>",
            "<?xml\nversion=\"1.0\"\nencoding\n=\n\"ISO-8859-1\"?>", "<?xml version=\"1.0\" encoding\u{0}\u{0}=\u{1}\"UTF-7\"?>",
        ] {
            do {
                _ = try read(xml: declaration + "\n" + body)
                Issue.record("expected a refusal: \(declaration)")
            } catch let error as ExportError {
                #expect(error.code == .notAnExport && error.message.contains("unsupported encoding"), "\(error)")
            }
        }
        #expect(try read(xml: "<?xml version=\"1.0\"\tencoding = 'utf-8'?>\n" + body).sink.objects.count == 1)
    }

    /// A processing instruction ends where libxml2 sees it end, after the repairs: an ill-formed
    /// byte before `>` ends the XML declaration (it becomes `?`). The pre-filter once looked for
    /// a raw `?>`, found a later one, and left the DOCTYPE between them unblanked (found by the
    /// scanner fuzz harness). Blanked, the DTD's syntax error and its entity are not seen.
    @Test func aDeclarationEndedByARepairedByteHasItsDoctypeBlanked() throws {
        let declaration = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"".utf8) + [0xAE]
        let rest = ">\n<!DOCTYPE HealthData [\n<!ELEMENT broken ((>\n<!ENTITY y \"injected\">\n]>\n"
            + "<HealthData locale=\"en_US\">\n<!-- ?><HealthData> -->\n" + Self.record() + "</HealthData>\n"
        let bytes = declaration + Array(rest.utf8)
        for parser in [ExportXMLParser.scanner, .libxml2] {
            for pieces in [1, 7, ExportReader.chunkSize] {
                let reading = ParserDifferential.read(bytes, parser: parser, chunkSize: pieces)
                #expect(reading.error == nil && reading.objects.count == 1, "\(parser), pieces of \(pieces): \(reading.error ?? "")")
            }
        }
        let withEntity = declaration + Array(rest.replacingOccurrences(of: "<Record ", with: "<Record note=\"&y;\" ").utf8)
        let reading = ParserDifferential.read(withEntity, parser: .libxml2, chunkSize: ExportReader.chunkSize)
        #expect(reading.error?.contains("Entity 'y' not defined") == true, "\(reading.error ?? "")")
    }

    @Test func aFileThatIsNotAnExportIsRefused() throws {
        try expectError("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>\n", .notAnExport)
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: url)
        #expect(throws: ExportError.self) { try ExportReader(.path(url.path)) }
        #expect(throws: ExportError.self) { try ExportReader(.path("/nonexistent/export.zip")) }
    }

    @Test func forbiddenCharactersAreReplacedNotTruncated() throws {
        let xml = Self.head + " <Record type=\"HKQuantityTypeIdentifierDietaryProtein\" sourceName=\"App\" unit=\"g\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"2\">\n  <MetadataEntry key=\"HKFoodType\" value=\"Soup\u{0B}with bread &#11; \u{FFFE}\"/>\n </Record>\n</HealthData>\n"
        let result = try read(xml: xml)
        #expect(result.summary.replacedByteCount == 3)
        guard case .quantitySample(let q)? = result.sink.objects.first else {
            Issue.record("no sample")
            return
        }
        #expect(q.sample.metadata["HKFoodType"]?.text == "Soup with bread ?#11; \u{FFFD}")
    }

    @Test func invalidUTF8IsRepairedAtTheSameLength() throws {
        var bytes = Array((Self.head + " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"W").utf8)
        bytes += [0xC3, 0x28, 0xED, 0xA0, 0x80]
        bytes += Array(("\" unit=\"count/min\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"1\"/>\n</HealthData>\n").utf8)
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(bytes).write(to: url)
        let result = try read(.path(url.path))
        #expect(result.summary.replacedByteCount == 2)
        #expect(result.sink.objects.first?.sampleAttributes?.sourceRevision.source.name == "W?(\u{FFFD}")
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>\n<HealthData locale=\"en\">\n <ExportDate value=\"&secret;\"/>\n</HealthData>\n"
        do {
            _ = try read(xml: xml)
            Issue.record("expected an error")
        } catch let error as ExportError {
            #expect(error.code == .malformedXML)
            #expect(!error.message.contains("root:"))
        }
    }

    @Test func billionLaughsEndsQuicklyWithAnError() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY a \"aaaaaaaaaa\">\n"
        for i in 1...9 { xml += "<!ENTITY \(Character(UnicodeScalar(97 + i)!)) \"" + String(repeating: "&\(Character(UnicodeScalar(96 + i)!));", count: 10) + "\">\n" }
        xml += "]>\n<HealthData locale=\"en\"><ExportDate value=\"&j;\"/></HealthData>\n"
        #expect(throws: ExportError.self) { _ = try read(xml: xml) }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let depth = 100_000
        let xml = "<HealthData locale=\"en\"><Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"a\" unit=\"count\" startDate=\"2024-01-01 00:00:00 +0000\" endDate=\"2024-01-01 00:00:00 +0000\" value=\"1\">"
            + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth) + "</Record></HealthData>"
        do {
            _ = try read(xml: xml)
            Issue.record("a 100,000-deep element was accepted")
        } catch let error as ExportError {
            #expect(error.code == .malformedXML || error.code == .limitExceeded)
            #expect(error.location?.line == 1)
        }
    }

    @Test func aHugeAttributeValueIsAnErrorNotUnboundedMemory() throws {
        let huge = String(repeating: "x", count: 12 << 20)
        let xml = "<HealthData locale=\"en\"><Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(huge)\" unit=\"count\" startDate=\"2024-01-01 00:00:00 +0000\" endDate=\"2024-01-01 00:00:00 +0000\" value=\"1\"/></HealthData>"
        do {
            _ = try read(xml: xml)
            Issue.record("a 12 MB attribute value was accepted")
        } catch let error as ExportError {
            #expect(error.code == .malformedXML || error.code == .limitExceeded)
        }
    }

    @Test func aFragmentWithoutRootIsReadWithAWarning() throws {
        let result = try read(xml: Self.record() + Self.record(value: "80"))
        #expect(result.summary.isFragment)
        #expect(result.sink.objects.count == 2)
    }

    @Test func categoryValuesWithoutValueAreNotApplicable() throws {
        let xml = Self.head + " <Record type=\"HKCategoryTypeIdentifierMindfulSession\" sourceName=\"App\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:10:00 +0100\"/>\n</HealthData>\n"
        guard case .categorySample(let c)? = try read(xml: xml).sink.objects.first else {
            Issue.record("no sample")
            return
        }
        #expect(c.value == .notApplicable)
    }

    @Test func iOS8CompactDatesAndLegacySourceAreRead() throws {
        let xml = "<HealthData locale=\"en_US\">\n <ExportDate value=\"20140114084347-0800\"/>\n <Record type=\"HKQuantityTypeIdentifierStepCount\" source=\"AppleHealthDevice\" unit=\"count\" startDate=\"20140106084300-0800\" endDate=\"20140107084300-0800\" value=\"2309\" recordCount=\"191\"/>\n</HealthData>\n"
        guard case .quantitySample(let q)? = try read(xml: xml).sink.objects.first else {
            Issue.record("no sample")
            return
        }
        #expect(q.count == 191)
        #expect(q.sample.sourceRevision.source.name == "AppleHealthDevice")
        #expect(q.sample.startDate.iso8601 == "2014-01-06T08:43:00-08:00")
    }
}

@Suite struct ElementKindTests {
    @Test func aDTDWithAStrayAngleBracketIsRead() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: 13 -->\n<!ELEMENT HealthData (ExportDate,Me)>\n>\n]>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-01-01 10:00:00 +0100\"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexNotSet\"/>\n" + QuirkAndFaultTests.record() + "</HealthData>\n"
        let result = try read(xml: xml)
        #expect(result.sink.objects.count == 1)
        #expect(result.sink.header?.exportVersion == 13)
        // An empty characteristic means "not set".
        #expect(result.sink.header?.characteristics?.dateOfBirth == nil)
        #expect(result.sink.header?.characteristics?.biologicalSex == "HKBiologicalSexNotSet")
    }

    @Test func visionPrescriptionsKeepEveryLensField() throws {
        let xml = QuirkAndFaultTests.head + """
             <VisionPrescription type="HKVisionPrescriptionTypeContacts" dateIssued="2024-01-02 12:00:00 +0100" brand="Acme">
              <RightEye sphere="-1.25" sphereUnit="D" baseCurve="8.6" baseCurveUnit="mm" diameter="14.2" diameterUnit="mm" futureField="x"/>
              <LeftEye sphere="-1" sphereUnit="D" add="1.5" addUnit="D"/>
              <Attachment identifier="A-1"/>
              <MetadataEntry key="note" value="n"/>
             </VisionPrescription>
            </HealthData>

            """
        let result = try read(xml: xml)
        guard case .visionPrescription(let v)? = result.sink.objects.first else {
            Issue.record("no prescription")
            return
        }
        #expect(v.prescriptionType == "HKVisionPrescriptionTypeContacts")
        #expect(v.brand == "Acme")
        #expect(v.expirationDate == nil)
        #expect(v.rightEye?.baseCurve == Quantity(value: ExportNumber.parse("8.6")!, unit: "mm"))
        #expect(v.rightEye?.extensions.attributes == [GenericAttribute(name: "futureField", value: "x")])
        #expect(v.leftEye?.addPower?.value.value == 1.5)
        #expect(v.attachments == ["A-1"])
        #expect(v.metadata["note"]?.text == "n")
    }

    @Test func activitySummariesReadBothMoveTimeSpellings() throws {
        let xml = QuirkAndFaultTests.head + """
             <ActivitySummary dateComponents="2020-10-05" activeEnergyBurned="512.3" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveMinutes="0" appleMoveMinutesGoal="0" appleExerciseTime="31" appleExerciseTimeGoal="30" appleStandHours="11" appleStandHoursGoal="12"/>
             <ActivitySummary dateComponents="2020-10-06"/>
            </HealthData>

            """
        let objects = try read(xml: xml).sink.objects
        guard case .activitySummary(let first)? = objects.first, case .activitySummary(let second)? = objects.last else {
            Issue.record("no summaries")
            return
        }
        #expect(first.dateComponents == CalendarDate(year: 2020, month: 10, day: 5))
        #expect(first.activeEnergyBurned?.text == "512.3")
        #expect(first.appleMoveTime?.value == 0)
        #expect(first.appleExerciseTime?.value == 31)
        #expect(second.activeEnergyBurned == nil)
        #expect(first.uuid != second.uuid)
    }

    @Test func clinicalRecordsMapFHIRTypesToClinicalTypes() throws {
        let xml = QuirkAndFaultTests.head + """
             <ClinicalRecord type="AllergyIntolerance" identifier="2" sourceName="A" sourceURL="https://a/AllergyIntolerance/2" fhirVersion="1.0.2" receivedDate="2018-12-01 10:00:00 +0100" resourceFilePath="/clinical-records/AllergyIntolerance-1.json"/>
             <ClinicalRecord type="AllergyIntolerance" identifier="2" sourceName="B" sourceURL="https://b/AllergyIntolerance/2" fhirVersion="4.0.1" receivedDate="2018-12-01 10:00:00 +0100" resourceFilePath="/clinical-records/AllergyIntolerance-2.json"/>
             <ClinicalRecord type="Patient" identifier="1" sourceName="A" sourceURL="https://a/Patient/1" fhirVersion="1.0.2" receivedDate="2018-12-01 10:00:00 +0100" resourceFilePath="/clinical-records/Patient-1.json"/>
            </HealthData>

            """
        let records = try read(xml: xml).sink.objects.compactMap { object -> ClinicalRecord? in
            if case .clinicalRecord(let c) = object { return c }
            return nil
        }
        #expect(records.map(\.clinicalType.identifier) == [
            "HKClinicalTypeIdentifierAllergyRecord", "HKClinicalTypeIdentifierAllergyRecord", "Patient",
        ])
        // Only HealthKit's own clinical types are given; a Patient resource has none.
        #expect(records.map(\.clinicalType.isHealthKitClinicalType) == [true, true, false])
        for fhir in ["AllergyIntolerance", "Condition", "Immunization", "Observation", "DiagnosticReport", "MedicationOrder",
            "MedicationStatement", "MedicationRequest", "MedicationDispense", "Procedure", "DocumentReference", "Coverage"]
        {
            for type in ObjectType.clinicalCandidates(fhirResourceType: fhir) {
                #expect(TypeCatalogue.entry(for: type.identifier)?.kind == .clinicalRecord, "\(fhir)")
            }
        }
        // The same provider id from two sources is two records.
        #expect(Set(records.map(\.uuid)).count == 3)
    }

    @Test func exportsWithoutMeOrExportDateAreRead() throws {
        let result = try read(xml: "<HealthData locale=\"en_US\">\n" + QuirkAndFaultTests.record() + "</HealthData>\n")
        #expect(result.sink.header?.characteristics == nil)
        #expect(result.sink.header?.exportDate == nil)
        #expect(result.sink.objects.count == 1)
    }
}

/// Inputs that once broke the reader under the fuzzer (`Fuzz/regressions/export`), and the
/// shape of each: every one ends in a clean, located error or a clean read.
@Suite struct FuzzRegressionTests {
    @Test func everyRecordedFuzzFindingReadsOrFailsCleanly() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Fuzz/regressions/export")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.isEmpty)
        for name in names {
            do {
                _ = try read(.path(folder.appendingPathComponent(name).path))
            } catch let error as ExportError {
                #expect(error.location != nil, "\(name)")
            }
        }
    }

    /// The first finding: a bad date among an element's attributes stopped libxml2 while the
    /// remaining attributes were still being read from its (then freed) buffer.
    @Test func aBadDateAmongAttributesIsALocatedErrorAndTheRestIsNotRead() throws {
        let xml = """
            <HealthData locale="en_US">
             <Workout workoutActivityType="HKWorkoutActivityTypeSwimming" sourceName="W" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:30:00 +0000">
              <WorkoutEvent type="HKWorkoutEventTypeLap" date="not a date" duration="1.5" durationUnit="min"/>
             </Workout>
            </HealthData>
            """
        do {
            _ = try read(xml: xml)
            Issue.record("a bad date was accepted")
        } catch let error as ExportError {
            #expect(error.code == .invalidAttribute)
            #expect(error.location?.line == 3)
        }
    }
}

/// A key printed more than once on one object: an identical pair is kept once (workout metadata
/// is printed twice, quirk Q8); the same key with another value is kept too, since dropping
/// either would lose data, and warned about once per entry so kept, counted under one kind. The
/// checks scan a short list and look a long one up by hash, with the same result; one record
/// of 12,000 entries of one key took 10.9 s and was counted as 71,994,000 warnings (one per
/// earlier value, for every entry).
@Suite struct DuplicateMetadataTests {
    static func entries(_ pairs: [(String, String)]) -> String {
        pairs.map { "  <MetadataEntry key=\"\($0.0)\" value=\"\($0.1)\"/>\n" }.joined()
    }

    static func record(_ pairs: [(String, String)]) -> String {
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"72\">\n"
            + entries(pairs) + " </Record>\n"
    }

    static func read(_ body: String, parser: ExportXMLParser) throws -> ReadResult {
        try HealthExportTests.read(xml: QuirkAndFaultTests.head + body + "</HealthData>\n", parser: parser)
    }

    static func metadata(_ object: HealthObject?) -> [String] {
        object?.sampleAttributes?.metadata.entries.map { "\($0.key)=\($0.value.text)" } ?? []
    }

    static func conflicts(_ result: ReadResult, _ key: String) -> Int {
        result.summary.warnings.first { $0.warning.key == "metadataConflict:" + key }?.count ?? 0
    }

    /// Short lists and long ones (past `metadataScanLimit`) keep the same entries.
    @Test(arguments: ExportXMLParser.allCases, [5, 1_000])
    func aKeyWithManyValuesKeepsEachValueOnceAndCountsOneWarningPerKeptRepeat(parser: ExportXMLParser, count: Int) throws {
        var pairs = (0..<count).map { ("k", String($0)) }
        pairs += [("k", "0"), ("k", String(count - 1)), ("other", "x"), ("k", String(count / 2)), ("other", "x"), ("k", "new")]
        let result = try Self.read(Self.record(pairs), parser: parser)
        let kept = Self.metadata(result.sink.objects.first)
        #expect(kept == (0..<count).map { "k=\($0)" } + ["other=x", "k=new"])
        // Every kept entry of `k` after the first is a conflict; the repeated pairs are not.
        #expect(Self.conflicts(result, "k") == count)
        #expect(Self.conflicts(result, "other") == 0)
    }

    @Test(arguments: ExportXMLParser.allCases)
    func manyDistinctKeysAreAllKeptWithoutWarnings(parser: ExportXMLParser) throws {
        let pairs = (0..<5_000).map { ("key\($0)", "1") }
        let result = try Self.read(Self.record(pairs + pairs.prefix(100)), parser: parser)
        #expect(Self.metadata(result.sink.objects.first) == pairs.map { "\($0.0)=1" })
        #expect(!result.summary.warnings.contains { $0.warning.key.hasPrefix("metadataConflict:") })
    }

    /// A workout's metadata printed again after its events (Q8), each event with metadata of
    /// its own: each object's entries are checked against its own, whichever way they are held.
    @Test(arguments: ExportXMLParser.allCases, [3, 40])
    func aWorkoutsMetadataAroundItsEventsIsCheckedAgainstItsOwn(parser: ExportXMLParser, count: Int) throws {
        let own = (0..<count).map { ("w\($0)", "1") }
        let event = (0..<count).map { ("w\($0)", "2") }
        let body = " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:30:00 +0100\">\n"
            + Self.entries(own)
            + "  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2024-01-01 09:10:00 +0100\">\n" + Self.entries(event + event) + "  </WorkoutEvent>\n"
            + Self.entries(own + [("w0", "3")])
            + "  <WorkoutEvent type=\"HKWorkoutEventTypeResume\" date=\"2024-01-01 09:12:00 +0100\">\n" + Self.entries(own) + "  </WorkoutEvent>\n"
            + " </Workout>\n"
        let result = try Self.read(body, parser: parser)
        guard case .workout(let workout)? = result.sink.objects.first else {
            Issue.record("no workout")
            return
        }
        #expect(workout.sample.metadata.entries.map { "\($0.key)=\($0.value.text)" } == own.map { "\($0.0)=1" } + ["w0=3"])
        #expect(workout.workoutEvents.map { $0.metadata.entries.count } == [count, count])
        #expect(workout.workoutEvents.first?.metadata.entries.allSatisfy { $0.value.text == "2" } == true)
        #expect(Self.conflicts(result, "w0") == 1)
    }
}
