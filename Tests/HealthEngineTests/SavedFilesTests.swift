import Foundation
import HealthEngine
import HealthQuery
import HealthTestSupport
import Testing

/// Anchors and policies are written as every output is: whole, mode 0600, nothing beside them.
@Suite struct SavedFilesTests {
    @Test func aPolicyIsSavedAtomicallyWithMode0600AndRoundTrips() throws {
        var policy = AuthorizationPolicy(consumer: .init(name: "Study", bundleIdentifier: "org.example"), ownSources: ["App"])
        policy.read["HKQuantityTypeIdentifierStepCount"] = .granted
        policy.share["HKQuantityTypeIdentifierBodyMass"] = .sharingDenied
        policy.perObject["HKVisionPrescriptionTypeIdentifier"] = .init(granted: ["00000000-0000-8000-8000-000000000001"])
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("policy.json").path
        try policy.save(to: path)
        #expect(try AuthorizationPolicy.load(from: path) == policy)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["policy.json"])
    }

    @Test func anAnchorIsSavedAtomicallyWithMode0600AndRoundTrips() throws {
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let anchor = try AnchorRun(export: export).run().anchor
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("last.anchor").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try anchor.save(to: path)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == anchor.encoded())
        #expect(try QueryAnchor.load(from: path).base.count == anchor.base.count)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["last.anchor"])
    }

    @Test func aFailedSaveLeavesNothingAndSaysWhere() throws {
        let policy = AuthorizationPolicy(consumer: .init(name: "Study"))
        #expect(throws: PolicyFileError.self) { try policy.save(to: "/nonexistent-folder/policy.json") }
    }
}
