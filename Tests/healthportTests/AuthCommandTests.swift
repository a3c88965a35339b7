import Foundation
import Testing
import HealthTestSupport

@Suite struct AuthCommandTests {
    func policy(_ json: String) throws -> String {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    static let stepsOnly = """
        {"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted"}}
        """

    /// Everything healthport wrote, in every format, for a policy that grants steps only.
    @Test func nothingButWhatThePolicyAllowsLeavesInAnyFormatOrCommand() throws {
        let path = try policy(Self.stepsOnly)
        let manifest = try sampleManifest()
        let steps = manifest.objectsByType["HKQuantityTypeIdentifierStepCount"]!
        // NDJSON
        let ndjson = try healthport("convert", sampleZip, "--policy", path, "-q")
        #expect(ndjson.status == 0)
        let objects = try ndjsonObjects(ndjson.stdout)
        #expect(objects.count == steps + 1)
        #expect(objects.dropFirst().allSatisfy { $0["sampleType"] as? String == "HKQuantityTypeIdentifierStepCount" })
        #expect(objects.first?["characteristics"] == nil)
        #expect(!ndjson.stdoutText.contains("1985-06-15"))
        // JSON
        let json = try healthport("convert", sampleZip, "--policy", path, "--format", "json", "-q")
        let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((document["objects"] as? [Any])?.count == steps)
        #expect(document["characteristics"] == nil)
        // CSV folder
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("csv")
        let csv = try healthport("convert", sampleZip, "--policy", path, "--format", "csv", "--output", folder.path, "-q")
        #expect(csv.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["StepCount.csv", "export.csv"])
        let exportRow = try String(contentsOf: folder.appendingPathComponent("export.csv"), encoding: .utf8)
        #expect(!exportRow.contains("1985") && !exportRow.contains("Female"))
        // query
        let query = try healthport("query", sampleZip, "--policy", path, "--sort", "startDate:desc", "--limit", "5", "-q")
        let queried = try ndjsonObjects(query.stdout)
        #expect(queried.count == 6)
        #expect(queried.dropFirst().allSatisfy { $0["sampleType"] as? String == "HKQuantityTypeIdentifierStepCount" })
    }

    @Test func aDeniedTypeLooksExactlyLikeAnAbsentOne() throws {
        let denied = try policy("""
            {"version": 1, "consumer": {"name": "S"}, "read": {"StepCount": "granted", "HeartRate": "denied"}}
            """)
        let undecided = try policy(Self.stepsOnly.replacingOccurrences(of: "Step Study", with: "S"))
        let a = try healthport("convert", sampleZip, "--policy", denied, "-q")
        let b = try healthport("convert", sampleZip, "--policy", undecided, "-q")
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        // Asking for the denied type by name: success, and nothing, as if there were none.
        let named = try healthport("convert", sampleZip, "--policy", denied, "--type", "HeartRate")
        #expect(named.status == 0)
        #expect(try ndjsonObjects(named.stdout).count == 1)
        #expect(named.stderr.isEmpty)
        // Asking for a type never decided fails, as HealthKit does.
        let never = try healthport("convert", sampleZip, "--policy", undecided, "--type", "HeartRate")
        #expect(never.status == 77)
        #expect(never.stderrText.contains("errorAuthorizationNotDetermined"))
    }

    @Test func ownSourcesStayReadableUnderDenial() throws {
        let path = try policy("""
            {"version": 1, "consumer": {"name": "Scale"}, "ownSources": ["Health"], "read": {"BodyMass": "denied"}}
            """)
        let result = try healthport("convert", sampleZip, "--policy", path, "--type", "BodyMass", "-q")
        let objects = try ndjsonObjects(result.stdout).dropFirst()
        #expect(objects.count == (try sampleManifest()).objectsByType["HKQuantityTypeIdentifierBodyMass"])
    }

    @Test func requestStatusAndNonInteractiveAnswers() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("study.json").path
        #expect(try healthport("auth", "request-status", "--policy", path, "--read", "StepCount").stdoutText == "shouldRequest\n")
        let granted = try healthport("auth", "request", "--policy", path, "--consumer", "Study", "--read", "StepCount", "--share", "BodyMass", "--grant")
        #expect(granted.status == 0, "\(granted.stderrText)")
        #expect(try healthport("auth", "request-status", "--policy", path, "--read", "StepCount").stdoutText == "unnecessary\n")
        #expect(try healthport("auth", "status", "--policy", path, "BodyMass", "HeartRate", "ActivitySummary").stdoutText
            == "sharingAuthorized\nnotDetermined\nsharingDenied\n")
        // Already decided: nothing is asked, nothing changes, success.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try healthport("auth", "request", "--policy", path, "--read", "StepCount", "--deny").status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // HealthKit's refusals.
        #expect(try healthport("auth", "request", "--policy", path, "--share", "ActivitySummary", "--grant").status == 64)
        #expect(try healthport("auth", "request", "--policy", path, "--read", "VisionPrescription", "--grant").status == 64)
        // No terminal and no answer given.
        #expect(try healthport("auth", "request", "--policy", path, "--read", "HeartRate").status == 64)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // A broken policy file is a configuration error, and stays untouched.
        try Data("{".utf8).write(to: URL(fileURLWithPath: path))
        let broken = try healthport("auth", "request", "--policy", path, "--read", "HeartRate", "--grant")
        #expect(broken.status == 78)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{")
    }

    /// Issue 36 (2): sixteen `auth request` processes on one policy file at once, each
    /// deciding another type; every decision must be in the file afterwards (without the lock,
    /// 3 to 7 of the 16 survived: each read, changed and replaced the file).
    @Test func concurrentRequestsOnOnePolicyKeepEveryDecision() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("study.json").path
        #expect(try healthport("auth", "request", "--policy", path, "--consumer", "Study", "--read", "StepCount", "--grant").status == 0)
        let types = [
            "HeartRate", "BodyMass", "Height", "BodyFatPercentage", "DistanceWalkingRunning", "ActiveEnergyBurned",
            "BasalEnergyBurned", "FlightsClimbed", "RestingHeartRate", "WalkingHeartRateAverage", "OxygenSaturation",
            "RespiratoryRate", "BodyTemperature", "BloodGlucose", "DietaryWater",
        ]
        let results = ConcurrentResults<Int32>(count: types.count, initial: -1)
        DispatchQueue.concurrentPerform(iterations: types.count) { index in
            let arguments = ["auth", "request", "--policy", path, "--read", types[index], index % 2 == 0 ? "--grant" : "--deny"]
            results[index] = (try? healthport(arguments).status) ?? -1
        }
        #expect(results.all == Array(repeating: 0, count: types.count))
        let policy = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let read = try #require(policy["read"] as? [String: String])
        #expect(read.count == 16)
        for (index, type) in types.enumerated() {
            #expect(read["HKQuantityTypeIdentifier" + type] == (index % 2 == 0 ? "granted" : "denied"), "\(type)")
        }
        // Nothing left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["study.json"])
    }

    @Test func perObjectRequestsGrantChosenPrescriptionsOnly() throws {
        let path = try policy("""
            {"version": 1, "consumer": {"name": "Optician"}}
            """)
        #expect(try ndjsonObjects(try healthport("convert", sampleZip, "--policy", path, "--type", "VisionPrescription", "-q").stdout).count == 1)
        let request = try healthport("auth", "request-per-object", "--policy", path, sampleZip, "--type", "VisionPrescription", "--grant")
        #expect(request.status == 0, "\(request.stderrText)")
        let visible = try ndjsonObjects(try healthport("convert", sampleZip, "--policy", path, "--type", "VisionPrescription", "-q").stdout)
        #expect(visible.count == 2)
        #expect(try healthport("auth", "request-per-object", "--policy", path, sampleZip, "--type", "StepCount", "--grant").status == 64)
    }

    /// Drives the interactive sheet through a pseudo-terminal (`script` allocates one).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is not installed"))
    func theInteractiveSheetWorksOnATerminal() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("study.json").path
        let command = "'\(healthportBinary.path)' auth request --policy '\(path)' --consumer Study --read StepCount,HeartRate"
        let answered = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], stdin: Data("y\nn\n".utf8))
        #expect(answered.status == 0, "\(answered.stdoutText)")
        let policy = try String(contentsOfFile: path, encoding: .utf8)
        #expect(policy.contains("\"HKQuantityTypeIdentifierHeartRate\" : \"denied\""))
        #expect(policy.contains("\"HKQuantityTypeIdentifierStepCount\" : \"granted\""))
        // Cancelling leaves the policy unchanged and reports errorUserCanceled.
        let cancel = "'\(healthportBinary.path)' auth request --policy '\(path)' --read BodyMass"
        let cancelled = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", cancel, "/dev/null"], stdin: Data("q\n".utf8))
        #expect(cancelled.status == 75)
        #expect(cancelled.stdoutText.contains("errorUserCanceled"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == policy)
    }
}

@Suite
struct PolicyOnRealSamplesTests {
    static let samples = [
        "dogsheep-healthkit-to-sqlite/export.xml", "tdda-applehealthdata/export6s3sample.xml", "aleksi-applehealth/testdata.xml",
        "alxdrcirilo-apple-health-parser/export.zip", "opendroid-hk/sampleexport.xml", "opendroid-hk/sampleexport-2.xml",
        "nicolasreyrolle-apple-health-analyzer/exports/workout_running.xml",
    ]

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"), arguments: samples)
    func aPolicyThatGrantsNothingLetsNothingThrough(sample: String) throws {
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("none.json")
        try Data("{\"version\": 1, \"consumer\": {\"name\": \"Nobody\"}}".utf8).write(to: policy)
        let input = Fixtures.samples.appendingPathComponent(sample).path
        for format in ["ndjson", "json"] {
            let result = try healthport("convert", input, "--policy", policy.path, "--format", format)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            if format == "ndjson" {
                let lines = try ndjsonObjects(result.stdout)
                #expect(lines.count == 1)
                #expect(lines.first?["characteristics"] == nil)
            } else {
                let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
                #expect((document["objects"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"), arguments: samples)
    func aPolicyThatGrantsHeartRateLetsOnlyHeartRateThrough(sample: String) throws {
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("hr.json")
        try Data("{\"version\": 1, \"consumer\": {\"name\": \"Cardio\"}, \"read\": {\"HeartRate\": \"granted\"}}".utf8).write(to: policy)
        let input = Fixtures.samples.appendingPathComponent(sample).path
        let owner = try ndjsonObjects(try healthport("convert", input, "--type", "HeartRate", "-q").stdout)
        let consumer = try ndjsonObjects(try healthport("convert", input, "--policy", policy.path).stdout)
        #expect(consumer.dropFirst().allSatisfy { $0["sampleType"] as? String == "HKQuantityTypeIdentifierHeartRate" })
        #expect(consumer.count == owner.count)
    }
}

@Suite struct PerObjectSheetTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is not installed"))
    func thePerObjectSheetAsksForEachPrescription() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("optician.json").path
        try Data("{\"version\": 1, \"consumer\": {\"name\": \"Optician\"}}".utf8).write(to: URL(fileURLWithPath: path))
        let command = "'\(healthportBinary.path)' auth request-per-object --policy '\(path)' '\(sampleZip)' --type VisionPrescription"
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], stdin: Data("y\n".utf8))
        #expect(result.status == 0, "\(result.stdoutText)")
        #expect(result.stdoutText.contains("HKVisionPrescriptionTypeGlasses"))
        let visible = try ndjsonObjects(try healthport("convert", sampleZip, "--policy", path, "--type", "VisionPrescription").stdout)
        #expect(visible.count == 2)
    }

    /// A misspelt identifier is refused everywhere a type is named, with the nearest known one,
    /// and no file is written or changed.
    @Test func unknownIdentifiersAreRefusedAndNothingIsWritten() throws {
        let directory = try Fixtures.temporaryDirectory()
        let policy = directory.appendingPathComponent("policy.json")
        let request = try healthport("auth", "request", "--policy", policy.path, "--read", "HKQuantityTypeIdentifierStepCont", "--grant", "--consumer", "x")
        #expect(request.status == 64)
        #expect(request.stderrText.contains("did you mean HKQuantityTypeIdentifierStepCount?"))
        #expect(!FileManager.default.fileExists(atPath: policy.path))
        #expect(try healthport("auth", "request", "--policy", policy.path, "--read", "StepCount", "--grant", "--consumer", "x").status == 0)
        let before = try Data(contentsOf: policy)
        for arguments in [["auth", "request", "--policy", policy.path, "--read", "HKQuantityTypeIdentifierHeartRat", "--grant"],
            ["auth", "status", "--policy", policy.path, "HKQuantityTypeIdentifierStepCont"],
            ["auth", "request-status", "--policy", policy.path, "--read", "HKFoo"]]
        {
            let result = try healthport(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderrText)")
        }
        #expect(try Data(contentsOf: policy) == before)
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"version": 1, "consumer": {"name": "x"}, "read": {"HKQuantityTypeIdentifierStepCont": "granted"}}"#.utf8).write(to: bad)
        let duplicate = directory.appendingPathComponent("duplicate.json")
        try Data("{\"version\": 1, \"consumer\": {\"name\": \"x\"},\n \"read\": {\"StepCount\": \"denied\", \"StepCount\": \"granted\"}}".utf8).write(to: duplicate)
        let twice = try healthport("query", sampleZip, "--policy", duplicate.path, "--type", "StepCount", "-q")
        #expect(twice.status == 78)
        #expect(twice.stdout.isEmpty)
        #expect(twice.stderrText.contains("duplicate.json:2:") && twice.stderrText.contains("appears twice"))
        let refused = try healthport("query", sampleZip, "--policy", bad.path, "-q")
        #expect(refused.status == 78)
        #expect(refused.stderrText.contains("did you mean HKQuantityTypeIdentifierStepCount?"))
    }
}
