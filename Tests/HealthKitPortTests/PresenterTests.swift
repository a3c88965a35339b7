import Foundation
import HealthEngine
import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// Whatever sheet the host supplies, its answers reach the policy file byte for byte as the
/// `healthport` binary writes them, and what the consumer then sees follows from the file.
@Suite struct PresenterAnswersTests {
    enum Answer: String, CaseIterable, Sendable {
        case accept, deny, cancel

        var scripted: ScriptedPresenter.Answer {
            switch self {
            case .accept: .allowAll
            case .deny: .denyAll
            case .cancel: .cancel
            }
        }

        /// The command line's flag for the same answer; a cancel writes nothing.
        var flag: String? {
            switch self {
            case .accept: "--grant"
            case .deny: "--deny"
            case .cancel: nil
            }
        }
    }

    /// The step samples' uuids as the owner sees them.
    static func owner() async throws -> [UUID] {
        try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [])
            .result(for: HKHealthStore(opening: Reference.export)).map(\.uuid)
    }

    /// Seed 003's request with a new policy file, against `healthport auth request
    /// --consumer "Run Club" --share BodyMass --read HeartRate,StepCount --grant|--deny`.
    @Test(arguments: Answer.allCases) func aRequestsAnswerIsWrittenAsAuthRequestWritesIt(answer: Answer) async throws {
        let folder = try Fixtures.temporaryDirectory()
        let viaSwift = folder.appendingPathComponent("swift.json"), viaCLI = folder.appendingPathComponent("cli.json")
        let presenter = ScriptedPresenter(answer.scripted)
        let store = try HKHealthStore(opening: Reference.export, policy: viaSwift, consumer: "Run Club", presenter: presenter)
        do {
            try await store.requestAuthorization(toShare: [HKQuantityType(.bodyMass)], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
            #expect(answer != .cancel)
        } catch HKError.errorUserCanceled {
            #expect(answer == .cancel)
        }
        #expect(presenter.asked.first?.read.map(\.identifier) == ["HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount"])
        if let flag = answer.flag {
            try Reference.healthport(
                "auth", "request", "--policy", viaCLI.path, "--consumer", "Run Club", "--share", "BodyMass", "--read", "HeartRate,StepCount", flag)
            #expect(try Data(contentsOf: viaSwift) == Data(contentsOf: viaCLI))
        } else {
            #expect(!FileManager.default.fileExists(atPath: viaSwift.path))
        }

        let steps = HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [])
        switch answer {
        case .accept: #expect(try await steps.result(for: store).map(\.uuid) == (try await Self.owner()))
        case .deny: #expect(try await steps.result(for: store).isEmpty)  // read denial: an empty answer, no error
        case .cancel:
            await #expect(throws: HKError.self) { try await steps.result(for: store) }  // still undecided
        }
    }

    /// Seed 002's per-object request, against `healthport auth request-per-object --type
    /// VisionPrescription --grant|--deny` on a copy of the same policy file.
    @Test(arguments: Answer.allCases) func aPerObjectAnswerIsWrittenAsRequestPerObjectWritesIt(answer: Answer) async throws {
        let folder = try Fixtures.temporaryDirectory()
        let base = folder.appendingPathComponent("base.json")
        try Reference.healthport("auth", "request", "--policy", base.path, "--consumer", "Optician", "--read", "StepCount", "--grant")
        let viaSwift = folder.appendingPathComponent("swift.json"), viaCLI = folder.appendingPathComponent("cli.json")
        try FileManager.default.copyItem(at: base, to: viaSwift)
        try FileManager.default.copyItem(at: base, to: viaCLI)
        let store = try HKHealthStore(opening: Reference.export, policy: viaSwift, presenter: ScriptedPresenter(answer.scripted))
        do {
            try await store.requestPerObjectReadAuthorization(for: .visionPrescriptionType(), predicate: nil)
            #expect(answer != .cancel)
        } catch HKError.errorUserCanceled {
            #expect(answer == .cancel)
        }
        if let flag = answer.flag {
            try Reference.healthport(
                "auth", "request-per-object", "--policy", viaCLI.path, Reference.export.path, "--type", "VisionPrescription", flag)
        }
        #expect(try Data(contentsOf: viaSwift) == Data(contentsOf: viaCLI))
        let visible = try await HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: []).result(for: store)
        #expect(visible.count == (answer == .accept ? 1 : 0))
    }
}

/// `HKTerminalAuthorizationPresenter`: the command line's own sheet for a Swift program, read
/// from a stream and written to another; the same answers write the same file as `healthport
/// auth request` on a terminal.
@Suite struct TerminalPresenterTests {
    /// A presenter reading `answers`, and what it wrote.
    static func presenter(answering answers: String) throws -> (HKTerminalAuthorizationPresenter, () throws -> String) {
        let folder = try Fixtures.temporaryDirectory()
        let input = folder.appendingPathComponent("answers"), output = folder.appendingPathComponent("sheet")
        try Data(answers.utf8).write(to: input)
        try Data().write(to: output)
        let presenter = HKTerminalAuthorizationPresenter(input: try FileHandle(forReadingFrom: input), output: try FileHandle(forWritingTo: output))
        return (presenter, { String(decoding: try Data(contentsOf: output), as: UTF8.self) })
    }

    static let share: Set<HKSampleType> = [HKQuantityType(.bodyMass), HKQuantityType(.stepCount)]
    static let read: Set<HKObjectType> = [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]

    /// Mixed answers (which `--grant` and `--deny` cannot give) against the command line
    /// answered on a pseudo-terminal (`script` allocates one) with the same lines.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is not installed"))
    func mixedAnswersWriteWhatAuthRequestOnATerminalWrites() async throws {
        let folder = try Fixtures.temporaryDirectory()
        let viaSwift = folder.appendingPathComponent("swift.json"), viaCLI = folder.appendingPathComponent("cli.json")
        let answers = "y\nn\nn\ny\n"
        let (presenter, sheet) = try Self.presenter(answering: answers)
        let store = try HKHealthStore(opening: Reference.export, policy: viaSwift, consumer: "Run Club", presenter: presenter)
        try await store.requestAuthorization(toShare: Self.share, read: Self.read)
        // HKHealthStore asks in identifier order: reading HeartRate, StepCount; saving BodyMass, StepCount.
        #expect(
            try sheet() == "“Run Club” would like to access your health data.\n"
                + "Allow reading HeartRate? [y/n/q] Allow reading StepCount? [y/n/q] Allow saving BodyMass? [y/n/q] Allow saving StepCount? [y/n/q] ")
        let command = "'\(Reference.healthportBinary.path)' auth request --policy '\(viaCLI.path)' --consumer 'Run Club' "
            + "--read HeartRate,StepCount --share BodyMass,StepCount"
        let cli = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], stdin: Data(answers.utf8))
        #expect(cli.status == 0, "\(cli.stdoutText)")
        #expect(try Data(contentsOf: viaSwift) == Data(contentsOf: viaCLI))
        let saved = try AuthorizationPolicy.load(from: viaSwift.path)
        #expect(saved.read == ["HKQuantityTypeIdentifierHeartRate": .granted, "HKQuantityTypeIdentifierStepCount": .denied])
        #expect(saved.share == ["HKQuantityTypeIdentifierBodyMass": .sharingDenied, "HKQuantityTypeIdentifierStepCount": .sharingAuthorized])
    }

    /// `q`, or nothing on the input at all, is a cancel: `errorUserCanceled`, no file.
    @Test(arguments: ["y\nq\n", ""]) func aQuitOrNoInputIsUserCanceled(answers: String) async throws {
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        let (presenter, _) = try Self.presenter(answering: answers)
        let store = try HKHealthStore(opening: Reference.export, policy: policy, consumer: "Run Club", presenter: presenter)
        do {
            try await store.requestAuthorization(toShare: Self.share, read: Self.read)
            Issue.record("expected errorUserCanceled")
        } catch HKError.errorUserCanceled {}
        #expect(!FileManager.default.fileExists(atPath: policy.path))
    }

    /// The per-object sheet: the prescription described (kind and dates), answered `n`, writes
    /// what `auth request-per-object --deny` writes.
    @Test func thePerObjectSheetOnAStream() async throws {
        let folder = try Fixtures.temporaryDirectory()
        let viaSwift = folder.appendingPathComponent("swift.json"), viaCLI = folder.appendingPathComponent("cli.json")
        for url in [viaSwift, viaCLI] {
            try Reference.healthport("auth", "request", "--policy", url.path, "--consumer", "Optician", "--read", "StepCount", "--grant")
        }
        let (presenter, sheet) = try Self.presenter(answering: "n\n")
        let store = try HKHealthStore(opening: Reference.export, policy: viaSwift, presenter: presenter)
        try await store.requestPerObjectReadAuthorization(for: .visionPrescriptionType(), predicate: nil)
        try Reference.healthport("auth", "request-per-object", "--policy", viaCLI.path, Reference.export.path, "--type", "VisionPrescription", "--deny")
        #expect(try Data(contentsOf: viaSwift) == Data(contentsOf: viaCLI))
        let text = try sheet()
        #expect(text.hasPrefix("  HKVisionPrescriptionTypeGlasses, issued "))
        #expect(text.hasSuffix("\nAllow “Optician” to read this one? [y/n/q] "))
    }
}
