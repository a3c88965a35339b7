import Foundation
import HealthEngine
import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// Authorization with HealthKit's semantics over a policy file, with a scripted sheet; the
/// answers land in the file as `healthport auth request` writes them.
@Suite struct AuthorizationTests {
    static func policyFile(_ read: [String: AuthorizationPolicy.ReadDecision] = [:], share: [String: AuthorizationPolicy.ShareStatus] = [:]) throws -> URL {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        var policy = AuthorizationPolicy(consumer: .init(name: "Run Club"))
        policy.read = read
        policy.share = share
        try policy.save(to: url.path)
        return url
    }

    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"

    /// Seed 003's status loop and request-status check, unchanged but for the opening line.
    @Test func theSeedsStatusChecks() async throws {
        let policy = try Self.policyFile([Self.steps: .granted], share: [Self.steps: .sharingAuthorized, Self.bodyMass: .sharingDenied])
        let healthStore = try HKHealthStore(opening: Reference.export, policy: policy)
        let shareList: Set<HKSampleType> = [HKQuantityType(.stepCount), HKQuantityType(.bodyMass), HKQuantityType(.heartRate)]
        let readList: Set<HKSampleType> = [HKQuantityType(.stepCount)]

        #expect(HKHealthStore.isHealthDataAvailable())
        var seen: [String: String] = [:]
        for sampleType in shareList {
            let authorized = healthStore.authorizationStatus(for: sampleType)
            switch authorized {
            case .sharingAuthorized:
                seen[sampleType.identifier] = "許可"
            case .sharingDenied:
                seen[sampleType.identifier] = "拒否"
            case .notDetermined:
                seen[sampleType.identifier] = "未選択"
            @unknown default:
                break
            }
        }
        #expect(seen == [Self.steps: "許可", Self.bodyMass: "拒否", Self.heartRate: "未選択"])
        // A type no app may share: sharingDenied, even when reading is allowed.
        #expect(healthStore.authorizationStatus(for: HKQuantityType(.appleExerciseTime)) == .sharingDenied)

        // The same answers as `healthport auth status`.
        let loaded = try AuthorizationPolicy.load(from: policy.path)
        for type in shareList { #expect(loaded.shareStatus(for: type.identifier).rawValue == "\(healthStore.authorizationStatus(for: type))") }

        let status: HKAuthorizationRequestStatus = await withCheckedContinuation { continuation in
            healthStore.getRequestStatusForAuthorization(toShare: shareList, read: readList) { (authorized, error) in
                switch authorized {
                case .shouldRequest:
                    // アクセス許可に差分があるとき
                    break
                case .unnecessary:
                    // 差分なし
                    break
                default:
                    break
                }
                continuation.resume(returning: authorized)
            }
        }
        #expect(status == .shouldRequest)  // heart rate was never asked to share
        #expect(try await healthStore.statusForAuthorizationRequest(toShare: [HKQuantityType(.stepCount)], read: readList) == .unnecessary)
    }

    /// Seed 003's request with a completion handler: success means "completed", even when the
    /// person denies everything; the denial is then recorded and invisible.
    @Test func aDeniedRequestSucceedsAndTheDenialIsInvisible() async throws {
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("new-policy.json")
        let presenter = ScriptedPresenter(.denyAll)
        let healthStore = try HKHealthStore(opening: Reference.export, policy: policy, consumer: "Run Club", presenter: presenter)
        let shareList: Set<HKSampleType> = [HKQuantityType(.bodyMass)]
        let readList: Set<HKSampleType> = [HKQuantityType(.heartRate)]

        let success: Bool = await withCheckedContinuation { continuation in
            healthStore.requestAuthorization(toShare: shareList, read: readList, completion: { (success, error) in
                if success {
                    print("リクエスト成功")
                } else {
                    print("リクエスト失敗")
                }
                continuation.resume(returning: success)
            })
        }
        #expect(success)
        #expect(presenter.asked.count == 1)
        #expect(presenter.asked.first?.read.map(\.identifier) == [Self.heartRate])
        let saved = try AuthorizationPolicy.load(from: policy.path)
        #expect(saved.read == [Self.heartRate: .denied])
        #expect(saved.share == [Self.bodyMass: .sharingDenied])
        #expect(saved.consumer.name == "Run Club")

        // Denied reading answers like an empty type: no error, no samples.
        let heartRates = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.heartRate))], sortDescriptors: []
        ).result(for: healthStore)
        #expect(heartRates.isEmpty)

        // Asking again asks nothing (every type decided) and succeeds.
        try await healthStore.requestAuthorization(toShare: shareList, read: readList)
        #expect(presenter.asked.count == 1)
        #expect(try await healthStore.statusForAuthorizationRequest(toShare: shareList, read: readList) == .unnecessary)
    }

    @Test func aCancelledRequestIsUserCanceledAndChangesNothing() async throws {
        let policy = try Self.policyFile([Self.steps: .granted])
        let before = try Data(contentsOf: policy)
        let healthStore = try HKHealthStore(opening: Reference.export, policy: policy, presenter: ScriptedPresenter(.cancel))
        do {
            try await healthStore.requestAuthorization(toShare: [], read: [HKQuantityType(.heartRate)])
            Issue.record("a cancelled request must throw")
        } catch HKError.errorUserCanceled {
            // expected
        }
        #expect(try Data(contentsOf: policy) == before)
    }

    @Test func perObjectTypesAndUndecidedTypesFailAsInHealthKit() async throws {
        let policy = try Self.policyFile([Self.steps: .granted])
        let healthStore = try HKHealthStore(opening: Reference.export, policy: policy, presenter: ScriptedPresenter(.allowAll))
        // Read access to a per-object type through requestAuthorization: errorInvalidArgument.
        do {
            try await healthStore.requestAuthorization(toShare: [], read: [.visionPrescriptionType()])
            Issue.record("expected errorInvalidArgument")
        } catch HKError.errorInvalidArgument {}
        // The per-object request with a type that is not per-object: errorInvalidArgument.
        do {
            try await healthStore.requestPerObjectReadAuthorization(for: HKQuantityType(.stepCount), predicate: nil)
            Issue.record("expected errorInvalidArgument")
        } catch HKError.errorInvalidArgument {}
        // A query naming a type never decided: errorAuthorizationNotDetermined.
        do {
            _ = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.heartRate))], sortDescriptors: [])
                .result(for: healthStore)
            Issue.record("expected errorAuthorizationNotDetermined")
        } catch HKError.errorAuthorizationNotDetermined {}
        // Something to ask and no presenter: errorAuthorizationNotDetermined, file unchanged.
        let before = try Data(contentsOf: policy)
        do {
            try await HKHealthStore(opening: Reference.export, policy: policy).requestAuthorization(toShare: [], read: [HKQuantityType(.heartRate)])
            Issue.record("expected errorAuthorizationNotDetermined")
        } catch HKError.errorAuthorizationNotDetermined {}
        #expect(try Data(contentsOf: policy) == before)
    }

    /// Seed 002: query what can be read, then request per-object authorization, catching
    /// `HKError.errorUserCanceled`; then query again.
    @Test(arguments: [false, true]) func theSeedsPerObjectRequest(fromStore: Bool) async throws {
        let policy = try Self.policyFile([Self.steps: .granted])
        let url = fromStore ? try Reference.store() : Reference.export
        let cancelling = try HKHealthStore(opening: url, policy: policy, presenter: ScriptedPresenter(.cancel))
        let presenter = ScriptedPresenter(.allowAll)
        let store = try HKHealthStore(opening: url, policy: policy, presenter: presenter)

        // Read the newest prescription from the HealthKit store.
        let queryDescriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()],
                                                      sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                                                      limit: 1)
        // Nothing granted yet: the prescription is invisible.
        #expect(try await queryDescriptor.result(for: store).isEmpty)

        var canceled = false
        do {
            try await cancelling.requestPerObjectReadAuthorization(for: .visionPrescriptionType(),
                                                                   predicate: nil)
        } catch HKError.errorUserCanceled {
            // Handle the user canceling the authorization request.
            print("*** The user canceled the authorization request. ***")
            canceled = true
        } catch {
            // Handle the error here.
            fatalError("*** An error occurred while requesting permission to read vision prescriptions: \(error.localizedDescription) ***")
        }
        #expect(canceled)
        #expect(try await queryDescriptor.result(for: store).isEmpty)

        // Request authorization to read vision prescriptions.
        do {
            try await store.requestPerObjectReadAuthorization(for: .visionPrescriptionType(),
                                                              predicate: nil)
        } catch HKError.errorUserCanceled {
            // Handle the user canceling the authorization request.
            print("*** The user canceled the authorization request. ***")
            return
        } catch {
            // Handle the error here.
            fatalError("*** An error occurred while requesting permission to read vision prescriptions: \(error.localizedDescription) ***")
        }
        let offered = try #require(presenter.offered.first)
        #expect(offered.samples.count == 1)
        let newest = try await queryDescriptor.result(for: store)
        #expect(newest.map(\.uuid) == offered.samples.map(\.uuid))
        let saved = try AuthorizationPolicy.load(from: policy.path)
        #expect(saved.perObject["HKVisionPrescriptionTypeIdentifier"]?.granted == offered.samples.map(\.uuid.uuidString))

        // The system always asks again, even after a grant.
        try await store.requestPerObjectReadAuthorization(for: .visionPrescriptionType(), predicate: nil)
        #expect(presenter.offered.count == 2)
    }
}
