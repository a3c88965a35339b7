import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import MCP

/// A tool call's arguments, read strictly: an unknown name, a wrong JSON type or a value out
/// of range is a `ToolFailure` naming the argument, so an assistant can correct its call.
struct ToolArguments {
    let values: [String: Value]

    /// - Throws: `ToolFailure` for an argument the tool does not take.
    init(_ values: [String: Value]?, allowed: [String]) throws {
        self.values = values ?? [:]
        for name in self.values.keys.sorted() where !allowed.contains(name) {
            throw ToolFailure("errorInvalidArgument: unknown argument '\(name.prefix(60))'; this tool takes: \(allowed.joined(separator: ", "))")
        }
    }

    func string(_ name: String) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw ToolFailure.argument(name, "must be a string") }
        guard text.utf8.count <= 10_000 else { throw ToolFailure.argument(name, "is longer than 10,000 bytes") }
        return text
    }

    /// An array of strings; a single string is taken as a comma-separated list.
    func strings(_ name: String) throws -> [String]? {
        guard let value = values[name], !value.isNull else { return nil }
        if let text = value.stringValue { return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        guard let items = value.arrayValue else { throw ToolFailure.argument(name, "must be an array of strings") }
        guard items.count <= 1_000 else { throw ToolFailure.argument(name, "has more than 1,000 items") }
        return try items.map { item in
            guard let text = item.stringValue, text.utf8.count <= 1_000 else { throw ToolFailure.argument(name, "must be an array of strings") }
            return text
        }
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        let number: Int?
        switch value {
        case .int(let v): number = v
        case .double(let v): number = v.rounded() == v && abs(v) < 1e15 ? Int(v) : nil
        case .string(let text): number = Int(text)
        default: number = nil
        }
        guard let number else { throw ToolFailure.argument(name, "must be an integer") }
        guard range.contains(number) else {
            throw ToolFailure.argument(name, "must be from \(range.lowerBound) to \(range.upperBound) (it is \(number))")
        }
        return number
    }

    func bool(_ name: String) throws -> Bool? {
        guard let value = values[name], !value.isNull else { return nil }
        if let flag = value.boolValue { return flag }
        if let text = value.stringValue, ["true", "false"].contains(text) { return text == "true" }
        throw ToolFailure.argument(name, "must be true or false")
    }

    /// Type names (StepCount, HKQuantityTypeIdentifierHeartRate, …) as full identifiers, in
    /// the order given, without repeats.
    func types(_ name: String) throws -> [String]? {
        guard let names = try strings(name) else { return nil }
        var seen = Set<String>()
        var result: [String] = []
        for typeName in names {
            let identifiers = try engine(naming: ToolArgumentNames(types: name)) { try TypeNameResolver.resolve([typeName]).sorted() }
            for identifier in identifiers where seen.insert(identifier).inserted {
                result.append(identifier)
            }
        }
        return result
    }

    func timeZone(_ name: String) throws -> TimeZone? {
        guard let text = try string(name) else { return nil }
        return try engine { try TimeZoneNameResolver.resolve(text) }
    }

    /// The filters the reading tools share, as an `ObjectQuery` (without the policy, which the
    /// server adds from the person's file).
    func objectQuery(typesRequired: Bool) throws -> ObjectQuery {
        var query = ObjectQuery()
        if let types = try types("types") {
            guard !types.isEmpty else { throw ToolFailure.argument("types", "must name at least one type") }
            query.types = Set(types)
        } else if typesRequired {
            throw ToolFailure.argument("types", "is required: name the types to read (StepCount, HeartRate, …)")
        }
        let zone = try timeZone("timeZone") ?? TimeZone(identifier: "UTC")!
        if let text = try string("predicate") {
            query.predicate = try engine {
                do {
                    return try PredicateParser.parse(text, timeZone: zone)
                } catch var error as QueryPredicateError {
                    error.source = text
                    throw error
                }
            }
        }
        let start = try string("start")
        let end = try string("end")
        let strictStart = try bool("strictStartDate") ?? false
        let strictEnd = try bool("strictEndDate") ?? false
        if start != nil || end != nil {
            // Without timeZone, a date without an offset is the person's time (the samples'
            // own zone), where statistics cut days.
            let typed = DateWindow.typed(
                start: start, end: end, strictStartDate: strictStart, strictEndDate: strictEnd, zone: try timeZone("timeZone"))
            if let invalid = typed.invalid {
                throw ToolFailure.argument(invalid == start ? "start" : "end", "is not a date (2024-01-01 or 2024-01-01T08:00:00+01:00)")
            }
            query.dateWindow = typed.window
        } else if strictStart || strictEnd {
            throw ToolFailure.argument(strictStart ? "strictStartDate" : "strictEndDate", "needs start or end")
        }
        query.sources = try strings("sources") ?? []
        if let unit = try string("unit") {
            query.outputUnit = try engine {
                do {
                    return try HealthUnit(unit)
                } catch let error as UnitError {
                    throw QueryError(.errorInvalidArgument, error.message, argument: .unit)
                }
            }
        }
        return query
    }

    func date(_ name: String, zone: TimeZone) throws -> Double? {
        guard let text = try string(name) else { return nil }
        guard let value = PredicateValue.parseDate(text, timeZone: zone) else {
            throw ToolFailure.argument(name, "is not a date (2024-01-01 or 2024-01-01T08:00:00+01:00)")
        }
        return value
    }
}

/// Runs library code, turning what it throws into a `ToolFailure` through `RunError`, as every
/// face classifies errors; `names` are the calling tool's names for the parts of the request.
@discardableResult
func engine<T>(naming names: ToolArgumentNames = ToolArgumentNames(), _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let failure as ToolFailure {
        throw failure
    } catch {
        throw ToolFailure(RunError(error), naming: names)
    }
}
