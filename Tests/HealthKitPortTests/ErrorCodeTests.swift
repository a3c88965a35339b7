import Foundation
import HealthEngine
@testable import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// HealthKitPort takes `HKError`'s code from the engine's HealthKit code field
/// (`RunError.healthKitCode`), never from the message's words. (Issue 37, item 2.)
@Suite struct ErrorCodeTests {
    /// Each message below starts with the other code's name: a port that read the message
    /// (as it once did, with `message.hasPrefix("errorAuthorizationDenied")`) gets both wrong.
    @Test func deniedAndNotDeterminedComeFromTheCodeField() {
        let denied = RunError(
            .notAuthorized, "errorAuthorizationNotDetermined (5): words that say otherwise", healthKitCode: .errorAuthorizationDenied)
        #expect(HKError(denied).code == .errorAuthorizationDenied)
        let undecided = RunError(
            .notAuthorized, "errorAuthorizationDenied (4): words that say otherwise", healthKitCode: .errorAuthorizationNotDetermined)
        #expect(HKError(undecided).code == .errorAuthorizationNotDetermined)
    }

    /// The lower module's codes travel through `RunError` into `HKError`, and the message
    /// holds the explanation once, without the code (which `description` shows).
    @Test func authorizationCodesMapThroughTheEngine() {
        let cases: [(AuthorizationError.Code, HKError.Code)] = [
            (.errorInvalidArgument, .errorInvalidArgument), (.errorAuthorizationDenied, .errorAuthorizationDenied),
            (.errorAuthorizationNotDetermined, .errorAuthorizationNotDetermined), (.errorUserCanceled, .errorUserCanceled),
        ]
        for (code, expected) in cases {
            let error = HKError(RunError(AuthorizationError(code, "Run Club may not do this")))
            #expect(error.code == expected)
            #expect(error.message == "Run Club may not do this")
            #expect(error.description == "\(expected) (\(expected.rawValue)): Run Club may not do this")
        }
        // A query's invalid argument: HealthKit's errorInvalidArgument, in words that name no option.
        let sort = HKError(RunError(QueryError(.errorInvalidArgument, "\(argument: .sort): unknown key 'x'", argument: .sort)))
        #expect(sort.code == .errorInvalidArgument && sort.message == "the sort: unknown key 'x'")
    }

    /// Through the store: a query naming an undecided type fails with
    /// `errorAuthorizationNotDetermined`, and its message reads as one sentence.
    @Test func anUndecidedTypeIsNotDeterminedThroughTheStore() async throws {
        let folder = try Fixtures.temporaryDirectory()
        let policyFile = folder.appendingPathComponent("policy.json")
        var policy = AuthorizationPolicy(consumer: .init(name: "Run Club"))
        policy.read = ["HKQuantityTypeIdentifierStepCount": .granted]
        try policy.save(to: policyFile.path)
        let store = try HKHealthStore(opening: Reference.export, policy: policyFile)
        do {
            _ = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.heartRate))], sortDescriptors: [])
                .result(for: store)
            Issue.record("expected errorAuthorizationNotDetermined")
        } catch let error as HKError {
            #expect(error.code == .errorAuthorizationNotDetermined)
            #expect(error.message == "Run Club has not requested authorization to read HKQuantityTypeIdentifierHeartRate")
        }
    }
}
