import Foundation
import HealthEngine
import HealthModel
import HealthQuery

/// The entry point (HealthKit: `HKHealthStore`), over a person's Apple Health export or a
/// healthport store instead of the phone's database.
///
/// The one line that differs from HealthKit code is the opening:
/// ```swift
/// let store = try HKHealthStore(opening: URL(fileURLWithPath: "export.zip"))
/// ```
/// Everything after it is HealthKit's API. The store is read-only: healthport never writes
/// Apple's data, so there is no `save`/`delete`.
///
/// **Authorization.** Without a policy the store answers as the data's owner: every type is
/// readable. With `policy:` (a `healthport-policy(5)` file, the one `healthport auth` manages)
/// it answers as HealthKit answers an app: queries see only what the policy lets the consumer
/// read, a read denial is invisible (a denied type answers like an empty one), and
/// `requestAuthorization` asks the person through the `presenter` and records the answers in
/// the policy file. The policy file is read again for every call, so a decision made by
/// `healthport auth` in another process takes effect at the next query, as a change in the
/// Settings app does on a phone.
///
/// Every call runs healthport's engine (`SampleQueryRun`, `ChangesRun`, …), the runs the
/// `healthport` command line makes, so a query here returns the objects, uuids and order that
/// `healthport query` prints for the same data and policy.
public final class HKHealthStore: NSObject, @unchecked Sendable {
    /// What the store reads: an export (zip, folder, `export.xml`) or a store (SQLite).
    let input: ObjectInput
    /// The policy file; `nil` is owner mode.
    let policyPath: String?
    /// The consumer a new policy file is made for.
    let consumer: String
    /// The sheet that asks the person; `nil` when the host supplies none.
    let presenter: (any HKAuthorizationPresenter)?

    /// Opens an export or a store.
    ///
    /// - Parameters:
    ///   - url: a Health export (`export.zip`, the unzipped folder, or `export.xml`), or a
    ///     store made by `healthport import` (recognized by its SQLite header).
    ///   - policy: the consumer's policy file (`healthport-policy(5)`); it need not exist yet
    ///     (then nothing has been decided, and the first `requestAuthorization` creates it).
    ///     `nil` reads as the owner, with no authorization.
    ///   - consumer: the consumer's name, written into a new policy file (the name the sheet
    ///     shows); by default the process's name.
    ///   - presenter: the authorization sheet, for instance `HKTerminalAuthorizationPresenter()`
    ///     (the sheet of `healthport auth request`); without one, a request that has something
    ///     to ask fails with `errorAuthorizationNotDetermined` (see `HKAuthorizationPresenter`).
    /// - Throws: `HKError.errorDatabaseInaccessible` when `url` does not exist.
    public init(
        opening url: URL, policy: URL? = nil, consumer: String = ProcessInfo.processInfo.processName,
        presenter: (any HKAuthorizationPresenter)? = nil
    ) throws {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw HKError(.errorDatabaseInaccessible, "\(path): no such export or store")
        }
        input = Self.isStore(path) ? .store(path) : .export(path)
        policyPath = policy?.path
        self.consumer = consumer
        self.presenter = presenter
        super.init()
    }

    /// Always `true`: the data is a file, available wherever the file is.
    public class func isHealthDataAvailable() -> Bool { true }

    /// Whether `path` is a SQLite database (a store) rather than an export.
    static func isStore(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\u{0}".utf8)
    }

    /// The policy as it is now: `nil` in owner mode; an empty policy (nothing decided) when the
    /// file does not exist yet.
    func currentPolicy() throws -> AuthorizationPolicy? {
        guard let policyPath else { return nil }
        guard FileManager.default.fileExists(atPath: policyPath) else {
            return AuthorizationPolicy(consumer: .init(name: consumer))
        }
        do {
            return try AuthorizationPolicy.load(from: policyPath)
        } catch {
            throw HKError(RunError(error))
        }
    }

    /// A query with the current policy applied.
    func authorized(_ query: ObjectQuery) throws -> ObjectQuery {
        var query = query
        query.policy = try currentPolicy()
        return query
    }
}

extension HKError {
    /// HealthKit's code for a run's failure: the engine's HealthKit code when it has one
    /// (`RunError.healthKitCode`, set from the lower modules' `AuthorizationError` and
    /// `QueryError` codes), else the code HealthKit gives that kind of failure. Never read from
    /// the message, whose words are for people.
    init(_ error: RunError) {
        let code: Code
        switch error.healthKitCode {
        case .errorInvalidArgument?: code = .errorInvalidArgument
        case .errorAuthorizationDenied?: code = .errorAuthorizationDenied
        case .errorAuthorizationNotDetermined?: code = .errorAuthorizationNotDetermined
        case .errorUserCanceled?: code = .errorUserCanceled
        case nil:
            switch error.category {
            case .invalidRequest, .invalidConfiguration: code = .errorInvalidArgument
            case .inputNotFound, .malformedInput, .ioFailure, .cannotCreateOutput, .outputClosed: code = .errorDatabaseInaccessible
            case .notAuthorized: code = .errorAuthorizationNotDetermined
            case .authorizationCancelled: code = .errorUserCanceled
            case .cancelled, .internalError: code = .unknownError
            }
        }
        // The message in no face's words ("the predicate, column 13: …"); the code is a field.
        self.init(code, error.description)
    }
}

/// Runs a blocking engine call off the caller's task, stopping it when the task is cancelled,
/// and turns its errors into `HKError` (a cancelled task throws `CancellationError`).
func runEngine<T: Sendable>(_ body: @escaping @Sendable (RunCancellation) throws -> T) async throws -> T {
    let cancellation = RunCancellation()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: try body(cancellation))
                } catch let error as HKError {
                    continuation.resume(throwing: error)
                } catch let error as RunError {
                    continuation.resume(throwing: error.category == .cancelled ? CancellationError() : HKError(error) as any Error)
                } catch is CancellationError {
                    continuation.resume(throwing: CancellationError())
                } catch {
                    continuation.resume(throwing: HKError(RunError(error)))
                }
            }
        }
    } onCancel: {
        cancellation.cancel()
    }
}
