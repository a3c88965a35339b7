import Foundation
import HealthKitPort

/// Seed 003, the authorization article, as its author wrote it: `self.shareList`,
/// `self.readList` and `self.healthStore` are the properties the article assumes. Only the
/// lines that open a store differ. Apple leaves the two request-status cases empty (Swift
/// needs a statement there): they print which it was. Each completion handler ends with
/// `done()`, which the article does not have: a program must wait for the handler before it
/// goes on, where an app simply returns to its run loop.
final class AuthorizationArticle: Sendable {
    // self.shareList と self.readList は Set<HKSampleType> で定義されてるとします
    let shareList: Set<HKSampleType> = [HKQuantityType(.bodyMass), HKQuantityType(.stepCount)]
    let readList: Set<HKSampleType> = [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]
    let healthStore: HKHealthStore
    let input: URL
    let policy: URL?

    init(input: URL, policy: URL?) throws {
        self.input = input
        self.policy = policy
        healthStore = try HKHealthStore(opening: input, policy: policy, presenter: HKTerminalAuthorizationPresenter())
    }

    /// The article's steps in its order, then the request status again.
    func run() async throws {
        checkAvailability()
        try await waiting { done in try self.checkRequestStatus(then: done) }
        try await waiting { done in try self.requestAccess(then: done) }
        checkStatuses()
        try await waiting { done in try self.checkRequestStatus(then: done) }
    }

    /// HealthKit に対応しているデバイスか確認
    func checkAvailability() {
        if HKHealthStore.isHealthDataAvailable() {
            print("対応")
        } else {
            print("非対応")
        }
    }

    /// ヘルスケアデータへのアクセス許可をリクエスト
    func requestAccess(then done: @escaping @Sendable () -> Void) throws {
        // self.shareList と self.readList は Set<HKSampleType> で定義されてるとします
        let healthStore = try HKHealthStore(opening: input, policy: policy, presenter: HKTerminalAuthorizationPresenter())
        healthStore.requestAuthorization(toShare: self.shareList, read: self.readList, completion: { (success, error) in
            if success {
                print("リクエスト成功")
            } else {
                print("リクエスト失敗")
            }
            done()
        })
    }

    /// リクエストしたアクセス許可の可否
    func checkStatuses() {
        // self.shareList は Set<HKSampleType> で定義されてるとします
        for sampleType in self.shareList {
            let authorized = self.healthStore.authorizationStatus(for: sampleType)
            switch authorized {
            case .sharingAuthorized:
                print("許可")
            case .sharingDenied:
                print("拒否")
            case .notDetermined:
                print("未選択")
            @unknown default:
                break
            }
        }
    }

    /// 新しくアクセス許可をしたい場合
    func checkRequestStatus(then done: @escaping @Sendable () -> Void) throws {
        let healthStore = try HKHealthStore(opening: input, policy: policy, presenter: HKTerminalAuthorizationPresenter())
        healthStore.getRequestStatusForAuthorization(toShare: self.shareList, read: self.readList) { (authorized, error) in
            switch authorized {
            case .shouldRequest:
                // アクセス許可に差分があるとき
                print("shouldRequest")
            case .unnecessary:
                // 差分なし
                print("unnecessary")
            default:
                break
            }
            done()
        }
    }

    /// Runs a step whose completion handler calls `done`, and returns once it has.
    private func waiting(_ step: (@escaping @Sendable () -> Void) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                try step { continuation.resume() }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
