import Foundation
import HealthEngine
import HealthModel
import HealthQuery

/// Authorization with HealthKit's semantics, over the policy file (docs/reference/healthkit.md §6).
extension HKHealthStore {
    /// Whether the consumer may **save** `type` (HealthKit: `authorizationStatus(for:)`); it never
    /// reveals whether reading was allowed. Types no app may share (characteristics, activity
    /// summaries, clinical records, Apple-computed types) are `sharingDenied`.
    ///
    /// Without a policy (owner mode) every shareable type is `sharingAuthorized`. A policy file
    /// that cannot be read answers `notDetermined`.
    public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        let status: AuthorizationPolicy.ShareStatus
        if policyPath == nil {
            status = AuthorizationPolicy.isReadOnly(type.identifier) ? .sharingDenied : .sharingAuthorized
        } else if let policy = try? currentPolicy() {
            status = policy.shareStatus(for: type.identifier)
        } else {
            status = .notDetermined
        }
        switch status {
        case .notDetermined: return .notDetermined
        case .sharingDenied: return .sharingDenied
        case .sharingAuthorized: return .sharingAuthorized
        }
    }

    /// Asks the person to allow reading and sharing (HealthKit: `requestAuthorization(toShare:read:)`).
    ///
    /// Only types not yet decided are asked, through the `presenter`; when every type was
    /// decided before, nothing is asked and the call succeeds. Returning means the request
    /// completed, **not** that anything was allowed (a person who denies everything still
    /// completes it). The answers are saved to the policy file atomically, as
    /// `healthport auth request` saves them. In owner mode (no policy) there is nothing to ask.
    ///
    /// - Throws: `HKError`: `errorInvalidArgument` for a per-object type (vision prescriptions:
    ///   use `requestPerObjectReadAuthorization`), a correlation type, a read-only type to share,
    ///   or workout routes without workouts; `errorUserCanceled` when the person cancels;
    ///   `errorAuthorizationNotDetermined` when there is something to ask and no presenter.
    public func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        let share = typesToShare.map(\.identifier).sorted()
        let read = typesToRead.map(\.identifier).sorted()
        guard let policyPath else {
            do {
                try AuthorizationPolicy.validateRequest(share: share, read: read)
            } catch {
                throw HKError(RunError(error))
            }
            return
        }
        let presenter = self.presenter
        let request = AuthorizationRequestRun(policyFile: policyPath, share: share, read: read, newConsumer: .init(name: consumer))
        _ = try await runEngine { _ in
            let sheetError = SheetError()
            return try sheetError.rethrowing {
                try request.run { sheet in try sheetError.keeping {
                guard let presenter else {
                    throw HKError(
                        .errorAuthorizationNotDetermined,
                        "no HKAuthorizationPresenter to ask about \((sheet.read + sheet.share).map(TypeCatalogue.shortName(of:)).joined(separator: ", ")); "
                            + "answer with `healthport auth request --policy \(policyPath)` or supply a presenter")
                }
                let question = HKAuthorizationRequest(
                    consumer: sheet.consumer.name, read: sheet.read.map(HKObjectType.make(identifier:)),
                    share: sheet.share.compactMap { HKObjectType.make(identifier: $0) as? HKSampleType })
                guard let response = try waitFor({ try await presenter.presentAuthorizationRequest(question) }) else { return nil }
                let allowedRead = Set(response.allowedRead.map(\.identifier))
                let allowedShare = Set(response.allowedShare.map(\.identifier))
                return AuthorizationRequestRun.Answers(
                    read: Dictionary(sheet.read.map { ($0, allowedRead.contains($0)) }, uniquingKeysWith: { a, _ in a }),
                    share: Dictionary(sheet.share.map { ($0, allowedShare.contains($0)) }, uniquingKeysWith: { a, _ in a }))
                } }
            }
        }
    }

    /// The completion-handler form: `success` is `true` when the request completed (whatever
    /// was answered), `false` with the error otherwise. Called on an arbitrary thread.
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        Task {
            do {
                try await requestAuthorization(toShare: typesToShare ?? [], read: typesToRead ?? [])
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    /// Whether a request for these types would ask anything (HealthKit:
    /// `getRequestStatusForAuthorization(toShare:read:)`): `shouldRequest` when a type was never
    /// decided, else `unnecessary`; never the answers. Owner mode: `unnecessary`.
    public func statusForAuthorizationRequest(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
        -> HKAuthorizationRequestStatus
    {
        guard policyPath != nil else { return .unnecessary }
        guard let policy = try currentPolicy() else { return .unnecessary }
        let share = typesToShare.map(\.identifier), read = typesToRead.map(\.identifier)
        return policy.shouldRequest(share: share, read: read) ? .shouldRequest : .unnecessary
    }

    /// The completion-handler form of `statusForAuthorizationRequest(toShare:read:)`; on an
    /// error the status is `unknown`.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        Task {
            do {
                completion(try await statusForAuthorizationRequest(toShare: typesToShare, read: typesToRead), nil)
            } catch {
                completion(.unknown, error)
            }
        }
    }

    /// Offers the person the objects of a per-object type (vision prescriptions) that match
    /// `predicate`, one by one (HealthKit: `requestPerObjectReadAuthorization(for:predicate:)`).
    ///
    /// **Always asks**, even when asked before, through the `presenter` (also when there is
    /// nothing to offer). The decisions are saved to the policy file atomically, as
    /// `healthport auth request-per-object` saves them. Returning means the request completed,
    /// not that anything was shared. In owner mode every object is already readable and nothing
    /// is asked.
    ///
    /// - Throws: `HKError`: `errorInvalidArgument` for a type that is not per-object or a
    ///   predicate this library cannot read; `errorUserCanceled` when the person cancels;
    ///   `errorAuthorizationNotDetermined` when there is no presenter.
    public func requestPerObjectReadAuthorization(for objectType: HKObjectType, predicate: NSPredicate?) async throws {
        guard objectType.requiresPerObjectAuthorization() else {
            throw HKError(.errorInvalidArgument, "\(objectType.identifier) is not authorized object by object")
        }
        var query = ObjectQuery(types: [objectType.identifier])
        try HKPortPredicate.apply(predicate, to: &query)
        guard let policyPath else { return }
        guard let presenter else {
            throw HKError(
                .errorAuthorizationNotDetermined,
                "no HKAuthorizationPresenter to offer the objects; answer with `healthport auth request-per-object --policy \(policyPath)`")
        }
        let request = PerObjectRequestRun(
            policyFile: policyPath, input: input, type: objectType.identifier, query: query, newPolicy: try currentPolicy())
        _ = try await runEngine { cancellation in
            let sheetError = SheetError()
            return try sheetError.rethrowing {
                try request.run(cancellation: cancellation) { sheet in try sheetError.keeping {
                let offer = HKPerObjectAuthorizationRequest(
                    consumer: sheet.consumer.name, objectType: objectType, samples: sheet.objects.compactMap { HKObject.make($0) as? HKSample })
                guard let response = try waitFor({ try await presenter.presentPerObjectRequest(offer) }) else { return nil }
                var answers: [ObjectUUID: Bool] = [:]
                for (uuid, allow) in response.decisions {
                    if let id = ObjectUUID(uuidString: uuid.uuidString) { answers[id] = allow }
                }
                return answers
                } }
            }
        }
    }

    /// The completion-handler form: `success` is `true` when the request completed.
    public func requestPerObjectReadAuthorization(
        for objectType: HKObjectType, predicate: NSPredicate?, completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        nonisolated(unsafe) let predicate = predicate
        Task {
            do {
                try await requestPerObjectReadAuthorization(for: objectType, predicate: predicate)
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }
}

/// Waits, on an engine thread (never a task's), for an async call: the bridge from the
/// engine's synchronous sheet callback to the host's async presenter.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            box.result = .success(try await body())
        } catch {
            box.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// Hands a result from a task to the thread waiting for it (under a semaphore).
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// What the sheet (the host's presenter, or the missing-presenter check) threw, kept aside so
/// that it reaches the caller as it was rather than as the engine's "internal error".
private final class SheetError: @unchecked Sendable {
    private var error: (any Error)?

    func keeping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            self.error = error
            throw error
        }
    }

    func rethrowing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw self.error ?? error
        }
    }
}
