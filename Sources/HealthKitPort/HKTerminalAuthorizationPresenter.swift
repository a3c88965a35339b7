import Foundation
import HealthEngine
import HealthModel

/// The authorization sheet of `healthport auth request` and `auth request-per-object`, for a
/// Swift program: the questions on standard error, the answers read from standard input
/// (`y`, `n`, or `q` to cancel).
///
/// HealthKit shows a system sheet; on Linux there is none, and a program run from a terminal
/// (a developer's check, a script that asks its user once) wants the one the command line
/// shows. This presenter is that sheet itself (`TerminalAuthorizationSheet`, the engine's one
/// implementation), so the person sees the same questions in the same words, and the same
/// answers write the same policy file, byte for byte:
/// ```swift
/// let store = try HKHealthStore(opening: URL(fileURLWithPath: "export.zip"),
///                               policy: URL(fileURLWithPath: "app.json"),
///                               presenter: HKTerminalAuthorizationPresenter())
/// try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
/// // “app” would like to access your health data.
/// // Allow reading StepCount? [y/n/q]
/// ```
///
/// Unlike the command line, it does not insist on a terminal: answers may come from a pipe (a
/// test, a CI job), and the end of the input is a cancel (`HKError.errorUserCanceled`, the
/// policy unchanged), so a program run with nothing on its input grants nothing. Types are
/// asked in the order `HKHealthStore` hands them over (by identifier).
///
/// A question waits for its answer on a thread of its own, not on Swift's cooperative pool;
/// cancelling the task does not interrupt the wait (a terminal read cannot be withdrawn).
public struct HKTerminalAuthorizationPresenter: HKAuthorizationPresenter {
    /// The sheet the command line shows.
    let sheet: TerminalAuthorizationSheet

    /// A presenter that asks on `output` and reads answers from `input`; by default standard
    /// error and standard input, as `healthport auth request` does.
    public init(input: FileHandle = .standardInput, output: FileHandle = .standardError) {
        sheet = TerminalAuthorizationSheet(input: input, output: output)
    }

    /// Asks about each undecided type, reading first, then saving.
    public func presentAuthorizationRequest(_ request: HKAuthorizationRequest) async throws -> HKAuthorizationResponse? {
        let questions = AuthorizationRequestRun.Sheet(
            consumer: .init(name: request.consumer), read: request.read.map(\.identifier), share: request.share.map(\.identifier))
        let sheet = self.sheet
        guard let answers = await Self.waiting({ sheet.ask(questions) }) else { return nil }
        return HKAuthorizationResponse(
            allowedRead: Set(request.read.filter { answers.read[$0.identifier] == true }),
            allowedShare: Set(request.share.filter { answers.share[$0.identifier] == true }))
    }

    /// Offers each sample on its own line (its kind and dates, never its measurements).
    public func presentPerObjectRequest(_ request: HKPerObjectAuthorizationRequest) async throws -> HKPerObjectAuthorizationResponse? {
        let offer = PerObjectRequestRun.Sheet(consumer: .init(name: request.consumer), objects: request.samples.map(\.object))
        let sheet = self.sheet
        guard let answers = await Self.waiting({ sheet.offer(offer) }) else { return nil }
        var decisions: [UUID: Bool] = [:]
        for (uuid, allow) in answers {
            if let id = UUID(uuidString: uuid.uuidString) { decisions[id] = allow }
        }
        return HKPerObjectAuthorizationResponse(decisions: decisions)
    }

    /// Runs a blocking terminal exchange on a thread of its own and resumes with its result.
    static func waiting<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
