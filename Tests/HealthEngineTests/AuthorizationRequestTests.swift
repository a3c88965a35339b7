import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

/// The authorization requests every face asks its own way (a terminal, an assistant's client):
/// what is asked, what is written, and that a request answered late does not undo a decision
/// made meanwhile.
@Suite struct AuthorizationRequestTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let mass = "HKQuantityTypeIdentifierBodyMass"

    static func policyFile() throws -> String {
        try Fixtures.temporaryDirectory().appendingPathComponent("policy.json").path
    }

    @Test func onlyUndecidedTypesAreAskedAndAnswersAreWritten() throws {
        let path = try Self.policyFile()
        var policy = AuthorizationPolicy(consumer: .init(name: "Study"))
        policy.read[Self.steps] = .denied
        try policy.save(to: path)
        let pending = try AuthorizationRequest(policyFile: path, share: [Self.mass], read: [Self.steps, Self.mass, Self.mass]).prepare()
        #expect(pending.readQuestions == [Self.mass])
        #expect(pending.shareQuestions == [Self.mass])
        try pending.record(read: [Self.mass: true], share: [:])
        let written = try AuthorizationPolicy.load(from: path)
        #expect(written.read == [Self.steps: .denied, Self.mass: .granted])
        #expect(written.share == [Self.mass: .sharingDenied], "no answer: denied")
    }

    @Test func aDecisionMadeWhileThePersonWasAskedIsKept() throws {
        let path = try Self.policyFile()
        try AuthorizationPolicy(consumer: .init(name: "Study")).save(to: path)
        let pending = try AuthorizationRequest(policyFile: path, share: [], read: [Self.steps, Self.mass]).prepare()
        // Meanwhile, on a terminal, the person denies steps.
        var meanwhile = try AuthorizationPolicy.load(from: path)
        meanwhile.read[Self.steps] = .denied
        try meanwhile.save(to: path)
        try pending.record(read: [Self.steps: true, Self.mass: true], share: [:])
        let written = try AuthorizationPolicy.load(from: path)
        #expect(written.read == [Self.steps: .denied, Self.mass: .granted])
    }

    /// Issue 36 (2): requests answered at once on threads of one process (the assistant and
    /// HealthKitPort answer on their own threads) each keep their decision.
    @Test func concurrentRecordsInOneProcessKeepEveryDecision() throws {
        let path = try Self.policyFile()
        let real = Array(TypeCatalogue.all.filter { $0.kind == .quantity }.prefix(16).map(\.identifier))
        #expect(real.count == 16)
        let pendings = try real.map { type in
            try AuthorizationRequest(policyFile: path, share: [], read: [type], consumer: "Study").prepare()
        }
        let failures = ConcurrentResults<Int>(count: pendings.count, initial: 1)
        DispatchQueue.concurrentPerform(iterations: pendings.count) { index in
            failures[index] = (try? pendings[index].recordAll(allow: index % 2 == 0)) == nil ? 1 : 0
        }
        #expect(failures.all.reduce(0, +) == 0)
        let written = try AuthorizationPolicy.load(from: path)
        #expect(written.read.count == 16)
        for (index, type) in real.enumerated() {
            #expect(written.read[type] == (index % 2 == 0 ? .granted : .denied), "\(type)")
        }
    }

    @Test func requestsHealthKitRefusesAreRefusedAndANewFileNeedsAConsumer() throws {
        let path = try Self.policyFile()
        #expect(throws: RunError.self) { try AuthorizationRequest(policyFile: path, share: [], read: [Self.steps]).prepare() }
        #expect(throws: RunError.self) {
            try AuthorizationRequest(policyFile: path, share: ["HKCharacteristicTypeIdentifierBloodType"], read: [], consumer: "X").prepare()
        }
        #expect(throws: RunError.self) {
            try AuthorizationRequest(policyFile: path, share: [], read: ["HKVisionPrescriptionTypeIdentifier"], consumer: "X").prepare()
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try AuthorizationRequest.shouldRequest(policyFile: path, share: [], read: [Self.steps]))
    }

    @Test func perObjectAnswersGrantAndRevokeTheOfferedObjects() throws {
        let path = try Self.policyFile()
        try AuthorizationPolicy(consumer: .init(name: "Optician")).save(to: path)
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let request = PerObjectAuthorizationRequest(policyFile: path, input: .export(export), type: "HKVisionPrescriptionTypeIdentifier")
        let pending = try request.prepare()
        #expect(pending.offered.count == 1)
        let object = try #require(pending.offered.first)
        #expect(!pending.isGranted(object))
        try pending.record([object.uuid: true])
        #expect(try AuthorizationPolicy.load(from: path).perObject["HKVisionPrescriptionTypeIdentifier"]?.granted == [object.uuid.uuidString])
        let again = try request.prepare()
        #expect(again.isGranted(object), "offered again, shown granted")
        try again.recordAll(allow: false)
        let grants = try AuthorizationPolicy.load(from: path).perObject["HKVisionPrescriptionTypeIdentifier"]
        #expect(grants?.granted == [] && grants?.revokedOwn == [object.uuid.uuidString])
        #expect(throws: RunError.self) {
            try PerObjectAuthorizationRequest(policyFile: path, input: .export(export), type: Self.steps).prepare()
        }
    }
}
