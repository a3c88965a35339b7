import Foundation
import HealthEngine
import HealthQuery
import MCP

/// What a reading tool works with: the configuration, the policy as the file says now, and the
/// call's cancellation (an MCP `notifications/cancelled`).
struct ToolContext: Sendable {
    let configuration: AssistantConfiguration
    /// Never `nil`: every read is a consumer's read. A missing file has decided nothing.
    let policy: AuthorizationPolicy
    let cancellation: RunCancellation

    /// The query under the policy: the one gate applies it to every object, header and count.
    func gated(_ query: ObjectQuery) -> ObjectQuery {
        var query = query
        query.policy = policy
        return query
    }
}

/// A tool that reads through the gate and answers at once (no question to the person).
protocol ReadingTool {
    static var definition: Tool { get }
    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText
}

extension Tool {
    /// The argument names the tool's input schema declares: any other is refused.
    var argumentNames: [String] {
        inputSchema.objectValue?["properties"]?.objectValue?.keys.sorted() ?? []
    }
}

/// JSON Schema fragments for tool inputs.
enum Schema {
    static func object(_ properties: [String: Value], required: [String] = []) -> Value {
        var schema: [String: Value] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required.map(Value.string)) }
        return .object(schema)
    }

    static func string(_ description: String) -> Value { ["type": "string", "description": .string(description)] }

    static func strings(_ description: String) -> Value {
        ["type": "array", "items": ["type": "string"], "description": .string(description)]
    }

    static func integer(_ description: String, minimum: Int, maximum: Int) -> Value {
        ["type": "integer", "minimum": .int(minimum), "maximum": .int(maximum), "description": .string(description)]
    }

    static func boolean(_ description: String) -> Value { ["type": "boolean", "description": .string(description)] }

    static func choice(_ description: String, _ values: [String]) -> Value {
        ["type": "string", "enum": .array(values.map(Value.string)), "description": .string(description)]
    }

    // The filters the reading tools share.
    static let types = strings(
        "Type names: StepCount, HeartRate, RestingHeartRate, BodyMass, SleepAnalysis, Workout, ActivitySummary, VisionPrescription, … (HealthKit's identifiers, with or without the HKQuantityTypeIdentifier prefix).")
    static let predicate = string(
        "A predicate in healthport's NSPredicate-style language (healthport-predicates(7)), e.g. quantity > \"100 count/min\" AND sourceRevision.source.name == \"Apple Watch\".")
    static let start = string(
        "Keep samples that end at or after this date (2024-01-01, or 2024-01-01T08:00:00+01:00; without an offset, in timeZone if given, else in the samples' own time zone).")
    static let end = string("Keep samples that start before this date.")
    static let strictStartDate = boolean("The sample's start must lie in the window (HKQueryOptions.strictStartDate).")
    static let strictEndDate = boolean("The sample's end must lie in the window (HKQueryOptions.strictEndDate).")
    static let timeZone = string("Time zone for dates without an offset, and where statistics cut days (default: the samples' own), e.g. Europe/Paris.")
    static let sources = strings("Keep objects saved by these sources (names; case and apostrophes loose).")
    static let unit = string("Write quantities in this unit (count/min, kg, km, degC, …).")
    static let cursor = string("The nextCursor of the previous page, to read the next one with the same other arguments.")
}
