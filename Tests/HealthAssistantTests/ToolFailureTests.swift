import Foundation
import HealthEngine
@testable import HealthAssistant
import HealthModel
import HealthQuery
import MCP
import Testing

/// The assistant renders the engine's errors from their fields, in its own words: its tool
/// arguments and tools, never the command line's options, and never by reading the message.
/// (Issue 37, item 2.) The expected answers are written out by hand.
@Suite struct ToolFailureTests {
    @Test func aBadPredicateNamesThePredicateArgumentAndItsColumn() async throws {
        let session = try await MCPHarness.start()
        defer { Task { await session.stop() } }
        let answer = try await session.call("query_samples", ["types": ["StepCount"], "predicate": "quantity >= AND x"])
        #expect(answer.isError)
        #expect(answer.text == """
            errorInvalidArgument (3): 'predicate', column 13: expected a value after '>='
              quantity >= AND x
                          ^
            """)
    }

    @Test func aBadTimeZoneNamesTheTimeZoneArgument() async throws {
        let session = try await MCPHarness.start()
        defer { Task { await session.stop() } }
        for (tool, arguments) in [
            ("query_samples", ["types": ["StepCount"], "timeZone": "Mars/Olympus"] as [String: Value]),
            ("statistics", ["type": "StepCount", "timeZone": "Mars/Olympus"]),
        ] {
            let answer = try await session.call(tool, arguments)
            #expect(answer.isError)
            #expect(answer.text == "errorInvalidArgument (3): 'timeZone': unknown time zone 'Mars/Olympus' (a name such as Europe/Paris, or an offset such as +01:00)", "\(tool)")
        }
    }

    @Test func messagesNameToolArgumentsAndToolsNotOptions() async throws {
        let session = try await MCPHarness.start { _ in .init(action: .cancel) }
        defer { Task { await session.stop() } }
        let sort = try await session.call("query_samples", ["types": ["StepCount"], "sort": ["colour"]])
        #expect(sort.text == "errorInvalidArgument (3): 'sort': unknown key 'colour' (see healthport-predicates(7))")
        let unit = try await session.call("query_samples", ["types": ["Workout"], "unit": "kg"])
        #expect(unit.text == "errorInvalidArgument (3): 'unit' applies to quantity types; HKWorkoutTypeIdentifier is not one")
        // The statistics tool calls its type `type`; the message's types are named so.
        let two = try await session.call("statistics", ["type": "StepCount,HeartRate", "timeZone": "UTC"])
        #expect(two.text == "errorInvalidArgument (3): statistics need exactly one quantity or category type: 'type' StepCount, SleepAnalysis, …")
        let anchorDate = try await session.call("statistics", ["type": "StepCount", "timeZone": "UTC", "anchorDate": "soon"])
        #expect(anchorDate.text == "errorInvalidArgument (3): 'anchorDate': invalid date 'soon'")
        let typo = try await session.call("query_samples", ["types": ["StepCont"]])
        #expect(typo.text == "errorInvalidArgument (3): 'types': unknown type 'StepCont' (did you mean StepCount?)")
        let perObject = try await session.call("request_authorization", ["read": ["VisionPrescription"]])
        #expect(perObject.text == """
            errorInvalidArgument (3): 'read': HKVisionPrescriptionTypeIdentifier is read object by object: \
            use the request_per_object_authorization tool
            """)
        for answer in [sort, unit, two, anchorDate, typo, perObject] {
            #expect(answer.isError)
            #expect(!answer.text.contains("--"), "\(answer.text)")
        }
    }

    @Test func aTypeNeverRequestedSaysToCallRequestAuthorization() async throws {
        let session = try await MCPHarness.start()
        defer { Task { await session.stop() } }
        let answer = try await session.call("query_samples", ["types": ["BodyMass"]])
        #expect(answer.isError)
        #expect(answer.text == """
            errorAuthorizationNotDetermined (5): Run Club has not requested authorization to read HKQuantityTypeIdentifierBodyMass
            Ask the person first: call request_authorization with these types.
            """)
    }

    /// The rendering reads fields only: words that once steered it (a code's name, an
    /// option, a command) change nothing, and the fields alone decide.
    @Test func theMessagesWordsDecideNothing() {
        let misleading = "errorAuthorizationNotDetermined --where --tz auth request-per-object"
        let plain = ToolFailure(RunError(.invalidRequest, misleading, healthKitCode: .errorInvalidArgument))
        #expect(plain.message == "errorInvalidArgument (3): " + misleading)
        let zone = ToolFailure(RunError(.invalidRequest, "unknown zone", healthKitCode: .errorInvalidArgument, argument: .timeZone))
        #expect(zone.message == "errorInvalidArgument (3): 'timeZone': unknown zone")
        let predicate = ToolFailure(
            RunError(.invalidRequest, "bad", healthKitCode: .errorInvalidArgument, argument: .predicate, column: 4))
        #expect(predicate.message == "errorInvalidArgument (3): 'predicate', column 4: bad")
        let undecided = ToolFailure(RunError(.notAuthorized, "nothing decided", healthKitCode: .errorAuthorizationNotDetermined))
        #expect(undecided.message == "errorAuthorizationNotDetermined (5): nothing decided\nAsk the person first: call request_authorization with these types.")
        let denied = ToolFailure(RunError(.notAuthorized, misleading, healthKitCode: .errorAuthorizationDenied))
        #expect(denied.message == "errorAuthorizationDenied (4): " + misleading)
        // A part no tool takes is named in plain words.
        let store = ToolFailure(RunError(.invalidRequest, "use \(argument: .store, "x.sqlite") or \(argument: .output, "DIR")", argument: .store))
        #expect(store.message == "errorInvalidArgument (3): use the store or the output")
    }
}
