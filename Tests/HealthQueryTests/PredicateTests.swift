import Foundation
import Testing
import HealthModel
@testable import HealthQuery

/// Objects to evaluate predicates on.
enum Sample {
    static let utc = TimeZone(identifier: "UTC")!

    static func quantity(
        _ type: String = "HKQuantityTypeIdentifierHeartRate", value: String = "130", unit: String = "count/min",
        start: String = "2024-01-01 10:00:00 +0000", end: String? = nil, source: String = "Apple Watch",
        metadata: [String: String] = [:], device: Device? = Device(name: "Apple Watch", manufacturer: "Apple Inc.")
    ) -> HealthObject {
        let s = ExportTimestamp.parse(start)!
        let e = ExportTimestamp.parse(end ?? start)!
        let entries = metadata.sorted { $0.key < $1.key }.map { MetadataEntry(key: $0.key, value: .interpret($0.value)) }
        return .quantitySample(
            QuantitySample(
                sample: SampleAttributes(
                    sampleType: ObjectType(recordType: type), sourceRevision: SourceRevision(source: Source(name: source), version: "10.2"),
                    device: device, startDate: s, endDate: e, metadata: Metadata(entries)),
                quantity: Quantity(value: ExportNumber.parse(value)!, unit: unit)))
    }

    static func sleep(_ value: String) -> HealthObject {
        let t = ExportTimestamp.parse("2024-01-01 01:00:00 +0000")!
        return .categorySample(
            CategorySample(
                sample: SampleAttributes(
                    sampleType: ObjectType(recordType: "HKCategoryTypeIdentifierSleepAnalysis"),
                    sourceRevision: SourceRevision(source: Source(name: "Watch")), startDate: t, endDate: t),
                value: CategoryValue.interpret(value)))
    }

    static func workout(distance: String?, unit: String = "km", events: [String] = []) -> HealthObject {
        let t = ExportTimestamp.parse("2024-01-01 17:00:00 +0000")!
        return .workout(
            Workout(
                sample: SampleAttributes(
                    sampleType: .workout, sourceRevision: SourceRevision(source: Source(name: "Watch")), startDate: t, endDate: t),
                workoutActivityType: WorkoutActivityType(name: "HKWorkoutActivityTypeRunning"),
                duration: Quantity(value: ExportNumber(30), unit: "min"),
                totalDistance: distance.map { Quantity(value: ExportNumber.parse($0)!, unit: unit) },
                workoutEvents: events.map { WorkoutEvent(type: WorkoutEventType(name: $0), date: t) }))
    }
}

func matches(_ predicate: String, _ object: HealthObject) throws -> Bool {
    try PredicateParser.parse(predicate, timeZone: Sample.utc).evaluate(object)
}

@Suite struct PredicateOperatorTests {
    let hr = Sample.quantity(metadata: ["HKMetadataKeyHeartRateMotionContext": "1", "HKWeatherTemperature": "73 degF", "note": "Café run"])

    @Test(arguments: [
        ("quantity == \"130 count/min\"", true), ("quantity = \"130 count/min\"", true), ("quantity != \"130 count/min\"", false),
        ("quantity <> \"131 count/min\"", true), ("quantity < \"131 count/min\"", true), ("quantity <= \"130 count/min\"", true),
        ("quantity =< \"129 count/min\"", false), ("quantity > \"2 count/s\"", true), ("quantity >= \"2.1666 count/s\"", true),
        ("quantity => \"2.17 count/s\"", false), ("quantity BETWEEN {\"120 count/min\", \"130 count/min\"}", true),
        ("quantity BETWEEN {\"131 count/min\", \"140 count/min\"}", false),
        ("sourceRevision.source.name BEGINSWITH \"Apple\"", true), ("sourceRevision.source.name BEGINSWITH \"apple\"", false),
        ("sourceRevision.source.name BEGINSWITH[c] \"apple watch\"", true), ("source ENDSWITH \"Watch\"", true),
        ("source CONTAINS \"le W\"", true), ("source LIKE \"Apple*\"", true), ("source LIKE \"A?ple Watch\"", true),
        ("source LIKE \"Apple\"", false), ("source MATCHES \"Apple W.*\"", true), ("source MATCHES \"Watch\"", false),
        ("source MATCHES[c] \"apple w[a-z]+\"", true),
        ("source IN {\"iPhone\", \"Apple Watch\"}", true), ("source IN {\"iPhone\"}", false), ("\"Watch\" IN source", true),
        ("metadata.note CONTAINS[cd] \"cafe\"", true), ("metadata.note CONTAINS[c] \"cafe\"", false),
        ("metadata.HKMetadataKeyHeartRateMotionContext == 1", true), ("metadata.HKMetadataKeyHeartRateMotionContext == YES", true),
        ("metadata.HKMetadataKeyHeartRateMotionContext == \"1\"", true), ("metadata.HKWeatherTemperature > \"20 degC\"", true),
        ("metadata.HKWeatherTemperature > \"25 degC\"", false), ("metadata.missing == nil", true), ("metadata.missing != nil", false),
        ("metadata.missing > 3", false), ("NOT metadata.missing > 3", true),
        ("quantity > \"100 count/min\" AND source == \"Apple Watch\"", true), ("quantity > \"200 count/min\" OR source == \"Apple Watch\"", true),
        ("quantity > \"200 count/min\" && source == \"Apple Watch\"", false), ("!(quantity > \"200 count/min\") || FALSEPREDICATE", true),
        ("TRUEPREDICATE", true), ("FALSEPREDICATE", false), ("count == 1", true), ("count + 1 == 2", true),
        ("startDate >= \"2024-01-01\"", true), ("startDate < \"2024-01-01T10:00:00Z\"", false),
        ("startDate >= 2024-01-01", true), ("startDate < 2024-01-01T10:00:00Z", false), ("startDate >= 2024-01-02", false),
        ("startDate BETWEEN {2024-01-01T09:00:00+00:00, 2024-01-01T11:00:00+0100}", true), ("count == 3 - 2", true),
        ("startDate == CAST(725796000, \"NSDate\")", true), ("startDate < now()", true),
        ("startDate BETWEEN {\"2024-01-01T09:00:00+00:00\", \"2024-01-01T11:00:00+01:00\"}", true),
        ("device.name == \"Apple Watch\"", true), ("device.manufacturer == \"Apple Inc.\"", true), ("device.model == nil", true),
        ("uuid == \"00000000-0000-0000-0000-000000000000\"", true), ("sampleType == \"HKQuantityTypeIdentifierHeartRate\"", true),
        ("value == 1", false), ("workoutActivityType == \"HKWorkoutActivityTypeRunning\"", false),
    ])
    func operatorsOnAQuantitySample(predicate: String, expected: Bool) throws {
        #expect(try matches(predicate, hr) == expected, "\(predicate)")
    }

    /// A predicate nested tens of thousands deep (a hostile or generated one) is refused with a
    /// located error instead of overflowing the stack; 60 levels parse. Every construct that
    /// nests is bounded: parentheses around predicates and around values, NOT, !, unary minus,
    /// braces, CAST, and arithmetic chains, which build a tree one level deeper per operator
    /// (the braces and the chain crashed the test process before they were bounded).
    @Test func deepNestingIsALocatedErrorNotACrash() throws {
        let braces = String(repeating: "{", count: 30_000) + "\"x\"" + String(repeating: "}", count: 30_000)
        for hostile in [String(repeating: "(", count: 40_000) + "count > 1" + String(repeating: ")", count: 40_000),
            String(repeating: "NOT ", count: 40_000) + "count > 1", String(repeating: "!", count: 40_000) + "count > 1",
            "count > " + String(repeating: "-", count: 40_000) + "1",
            "uuid IN " + braces, "uuid IN {" + String(repeating: "{", count: 30_000), "(uuid IN " + braces + ")",
            "count > " + String(repeating: "(", count: 30_000) + "1" + String(repeating: ")", count: 30_000),
            "startDate > " + String(repeating: "CAST(", count: 30_000) + "1" + String(repeating: ", \"NSDate\")", count: 30_000),
            "count > 1" + String(repeating: " + 1", count: 100_000), "count > 1" + String(repeating: " * 2", count: 100_000),
            "count > " + String(repeating: "1 + (", count: 30_000) + "1" + String(repeating: ")", count: 30_000)]
        {
            do {
                let parsed = try PredicateParser.parse(hostile, timeZone: Sample.utc)
                Issue.record("parsed a predicate nested \(hostile.count) characters deep: \(parsed.description.prefix(80))")
            } catch let error as QueryPredicateError {
                #expect(error.code == .nestedTooDeep, "\(hostile.prefix(40)): \(error)")
                let column = try #require(error.column)
                #expect(column > 1 && column < 400, "\(hostile.prefix(40)): column \(column)")
                #expect(error.caretLines.allSatisfy { $0.count < 120 })
            }
        }
        let deep = String(repeating: "(", count: 60) + "count > 1" + String(repeating: ")", count: 60)
        _ = try PredicateParser.parse(deep, timeZone: Sample.utc)
        let braced = "uuid IN " + String(repeating: "{", count: 60) + "\"x\"" + String(repeating: "}", count: 60)
        #expect(try !PredicateParser.parse(braced, timeZone: Sample.utc).evaluate(hr))
    }

    /// The error names where the bound is crossed: the 65th brace, NOT or operator.
    @Test func theNestingErrorPointsAtTheLevelPastTheBound() throws {
        func column(_ text: String) -> Int? {
            do {
                _ = try PredicateParser.parse(text, timeZone: Sample.utc)
                return nil
            } catch let error as QueryPredicateError {
                return error.code == .nestedTooDeep ? error.column : nil
            } catch {
                return nil
            }
        }
        // `uuid IN ` is 8 characters: the 65th brace is character 73.
        #expect(column("uuid IN " + String(repeating: "{", count: 100) + "\"x\"" + String(repeating: "}", count: 100)) == 73)
        // The 65th `NOT ` starts at 4 * 64 + 1.
        #expect(column(String(repeating: "NOT ", count: 100) + "count > 1") == 257)
        // The first `+` of `count + 1 + 1 …` is character 7, the 65th is 64 * 4 characters on.
        #expect(column("count + 1" + String(repeating: " + 1", count: 100) + " > 1") == 263)
    }

    /// What parses prints back in a form that parses (the fuzz harness's property), up to the
    /// bound: the printed form parenthesizes every AND/OR group and arithmetic operator, so the
    /// parsed form's levels count against the bound too. Before, `count + 1 + … > 1` with 70
    /// operators parsed and printed 70 nested parentheses that did not.
    @Test func predicatesAtTheBoundPrintAFormThatParses() throws {
        let atTheBound = [
            "count" + String(repeating: " + 1", count: 64) + " > 1",
            "count > 1" + String(repeating: " * 2", count: 64),
            String(repeating: "NOT ", count: 62) + "(count > 1 AND count < 3 OR count == 5)",
            String(repeating: "NOT ", count: 63) + "startDate > 2024-01-01",
            String(repeating: "NOT ", count: 62) + "startDate > 1990-01-01",
            "uuid IN " + String(repeating: "{", count: 64) + "\"x\"" + String(repeating: "}", count: 64),
            "count == " + String(repeating: "-", count: 64) + "1",
            String(repeating: "(", count: 64) + "count > 1" + String(repeating: ")", count: 64),
        ]
        for text in atTheBound {
            let parsed = try PredicateParser.parse(text, timeZone: Sample.utc)
            let printed = parsed.description
            let again = try PredicateParser.parse(printed, timeZone: Sample.utc)
            #expect(again.description == printed)
            #expect(again.evaluate(hr) == parsed.evaluate(hr))
        }
        for text in ["count" + String(repeating: " + 1", count: 65) + " > 1",
            String(repeating: "NOT ", count: 63) + "(count > 1 AND count < 3 OR count == 5)",
            String(repeating: "NOT ", count: 64) + "startDate > 2024-01-01",
            String(repeating: "NOT ", count: 63) + "startDate > 1990-01-01"]
        {
            #expect(throws: QueryPredicateError.self) { try PredicateParser.parse(text, timeZone: Sample.utc) }
        }
        // A run of minus signs is a value: `- -1` is 1.
        #expect(try matches("count == - -1", hr))
        #expect(try matches("count == ---1 + 2", hr))
    }

    @Test func categoryValuesCompareByRawValueOrName() throws {
        let core = Sample.sleep("HKCategoryValueSleepAnalysisAsleepCore")
        #expect(try matches("value == \"HKCategoryValueSleepAnalysisAsleepCore\"", core))
        #expect(try matches("value == 3", core))
        #expect(try matches("value IN {3, 4, 5}", core))
        #expect(try matches("value > 2", core))
        #expect(try matches("value == \"HKCategoryValueSleepAnalysisAsleepUnspecified\"", Sample.sleep("HKCategoryValueSleepAnalysisAsleep")))
        #expect(try !matches("value == 0", core))
    }

    @Test func workoutsCompareTypesDistancesAndEvents() throws {
        let run = Sample.workout(distance: "5.2", events: ["HKWorkoutEventTypePause", "HKWorkoutEventTypeResume"])
        #expect(try matches("workoutActivityType == \"HKWorkoutActivityTypeRunning\" AND totalDistance > \"5 km\"", run))
        #expect(try matches("workoutType == 37", run))
        #expect(try matches("totalDistance > \"3 mi\"", run))
        #expect(try !matches("totalDistance > \"4 mi\"", run))
        #expect(try matches("duration == 1800", run))
        #expect(try matches("duration == \"0.5 hr\"", run))
        #expect(try matches("ANY workoutEvents.type == \"HKWorkoutEventTypePause\"", run))
        #expect(try !matches("ALL workoutEvents.type == \"HKWorkoutEventTypePause\"", run))
        #expect(try matches("NONE workoutEvents.type == \"HKWorkoutEventTypeLap\"", run))
        #expect(try matches("workoutEvents.@count == 2", run))
        #expect(try matches("ALL workoutEvents.type == \"x\"", Sample.workout(distance: nil)))
        #expect(try !matches("totalDistance > \"1 km\"", Sample.workout(distance: nil)))
    }

    @Test func keyPathsThatDoNotApplyAreNilAndCompareFalse() throws {
        let run = Sample.workout(distance: "5")
        #expect(try !matches("quantity > \"1 count/min\"", run))
        #expect(try matches("quantity == nil", run))
        #expect(try !matches("value == 1", run))
    }
}

@Suite struct PredicateSyntaxTests {
    @Test(arguments: [
        ("quantity >= AND x", 13, "expected a value after '>='"), ("quantity >=", 12, "expected a value after '>='"),
        ("startdate > \"2024-01-01\"", 1, "unknown key path 'startdate'"), ("quantity > 5", 12, "bare number"),
        ("quantity > \"5 parsecs\"", 12, "expected a quantity"), ("startDate > 5", 13, "compare dates"),
        ("source BEGINSWITH 3", 19, "compares strings"), ("(source == \"a\"", 15, "expected ')'"),
        ("source == \"a", 11, "unterminated string"), ("SUBQUERY(x, $y, $y > 1).@count > 0", 1, "not supported"),
        ("source == $NAME", 11, "variables"), ("source == %@", 11, "format arguments"), ("", 1, "empty"),
        ("quantity BETWEEN {\"1 count\"}", 18, "two values"), ("source MATCHES \"(\"", 16, "regular expression"),
        ("source ==[x] \"a\"", 11, "expected c, d or cd"), ("foo(1) > 2", 1, "function"), ("source == \"a\" \"b\"", 15, "unexpected"),
    ])
    func malformedPredicatesAreLocatedErrors(text: String, column: Int, message: String) {
        do {
            _ = try PredicateParser.parse(text)
            Issue.record("expected an error for \(text)")
        } catch let error as QueryPredicateError {
            #expect(error.column == column, "\(text): \(error)")
            #expect(error.message.contains(message), "\(text): \(error.message)")
            if !text.isEmpty {
                #expect(error.caretLines.count == 2)
                #expect(error.caretLines[1].hasSuffix("^"))
            }
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func printsInOneNormalizedFormThatParsesBackToTheSamePredicate() throws {
        let text = "quantity >= \"120 count/min\" AND (source BEGINSWITH[c] \"apple\" OR NOT metadata.x == 1) AND startDate > \"2024-01-01T00:00:00Z\""
        let first = try PredicateParser.parse(text, timeZone: Sample.utc)
        let second = try PredicateParser.parse(first.description, timeZone: Sample.utc)
        #expect(first.description == second.description)
        #expect(first.description.contains("CAST("))
    }

    /// Found by `Scripts/fuzz.sh predicate`: an enum compared with a number no Int can hold
    /// trapped; it is a predicate that matches nothing.
    @Test func enumValuesComparedWithHugeNumbersMatchNothing() throws {
        let category = Sample.sleep("HKCategoryValueSleepAnalysisAsleepCore")
        for text in ["value IN {1, 21111111111111111111111111111, 1}", "value == 0.5", "value == 1e300"] {
            let predicate = try PredicateParser.parse(text, timeZone: Sample.utc)
            #expect(!predicate.evaluate(category), "\(text)")
        }
    }

    /// Found by `Scripts/fuzz.sh predicate`: a literal too large for a Double read as infinity,
    /// which printed as `inf` and did not parse back; it is an error at its column.
    @Test func numbersOutOfRangeAreErrors() throws {
        let huge = String(repeating: "9", count: 400)
        do {
            _ = try PredicateParser.parse("count > 1 / \(huge)", timeZone: Sample.utc)
            Issue.record("an infinite literal was accepted")
        } catch let error as QueryPredicateError {
            #expect(error.message.contains("out of range") && error.column == 13)
        }
    }

    /// Found by `Scripts/fuzz.sh predicate`: a quoted metadata key printed unquoted, and so
    /// did not parse back.
    @Test func quotedMetadataKeysPrintQuoted() throws {
        for text in [#"metadata."100 fhirResource.i" > 5"#, #"metadata["a \"b\" c"] == "x\\y""#, "metadata.plain == 1"] {
            let first = try PredicateParser.parse(text, timeZone: Sample.utc)
            let second = try PredicateParser.parse(first.description, timeZone: Sample.utc)
            #expect(first.description == second.description, "\(text) → \(first.description)")
        }
        // The finding itself: a key of control characters and a space, quoted. It must parse
        // (a `try?` here once skipped every assertion when it did not), name that key, print
        // it in brackets, quoted (nothing in it needs escaping), and parse back to the same.
        let regression = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/regressions/predicate/c"),
            encoding: .utf8)
        let prefix = #"quantity > metadata.""#
        #expect(regression.hasPrefix(prefix) && regression.hasSuffix("\""))
        let key = String(regression.dropFirst(prefix.count).dropLast())
        #expect(key.hasPrefix("100 fhirResource.i\u{0}") && key.hasSuffix("dentifierc1o") && key.unicodeScalars.count == 141)
        let parsed = try PredicateParser.parse(regression, timeZone: Sample.utc)
        guard case .comparison(let comparison) = parsed, case .keyPath(.metadata(let parsedKey), _, _) = comparison.right else {
            Issue.record("not a comparison with a metadata key: \(parsed)")
            return
        }
        #expect(parsedKey == key)
        let printed = "quantity > metadata[\"" + key + "\"]"
        #expect(parsed.description == printed)
        #expect(try PredicateParser.parse(parsed.description, timeZone: Sample.utc).description == printed)
    }

    /// Found by `Scripts/fuzz.sh predicate` in the two-hour campaign: a quantity compared with
    /// a unit of 2,400 `(` overflowed the stack in the unit parser. It is now a one-line
    /// error naming the bound, at the quantity's position.
    @Test func aUnitNestedTooDeepIsAnErrorNotACrash() throws {
        // The input holds a byte that is not UTF-8; the harness decodes it as the parser's
        // callers do, replacing it.
        let regression = String(decoding: try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/regressions/predicate/unit-nested-parentheses")),
            as: UTF8.self)
        #expect(regression.hasPrefix("quantity > \"343 ((((") && regression.filter { $0 == "(" }.count > 2000)
        #expect(throws: (any Error).self) { try PredicateParser.parse(regression, timeZone: Sample.utc) }
    }

    /// Found by `Scripts/fuzz.sh predicate`: a date before 2001 printed as a negative CAST
    /// did not parse back.
    @Test func datesBefore2001PrintInAFormThatParsesBack() throws {
        let text = "endDate < now() - 86400 OR startDate > \"1990-05-01T00:00:00Z\""
        let first = try PredicateParser.parse(text, timeZone: Sample.utc, now: Date(timeIntervalSince1970: 0))
        #expect(first.description.contains("CAST(-"))
        let second = try PredicateParser.parse(first.description, timeZone: Sample.utc)
        #expect(first.description == second.description)
    }
}

@Suite struct DateWindowTests {
    // The worked examples of docs/reference/healthkit.md §4.2, window [10:00, 11:00).
    static let rows: [(String, String, [Bool])] = [
        ("08:00", "09:00", [false, false, false, false]),
        ("09:00", "10:00", [true, false, true, false]),
        ("09:30", "10:30", [true, false, true, false]),
        ("10:00", "10:00", [true, true, true, true]),
        ("10:30", "11:30", [true, true, false, false]),
        ("09:00", "12:00", [true, false, false, false]),
        ("11:00", "11:00", [false, false, false, false]),
    ]

    @Test func matchesHealthKitsTableOnEveryBoundary() throws {
        func t(_ hm: String) -> Double { PredicateValue.parseDate("2024-01-01T\(hm):00Z", timeZone: Sample.utc)! }
        for (s, e, expected) in Self.rows {
            for (index, (strictStart, strictEnd)) in [(false, false), (true, false), (false, true), (true, true)].enumerated() {
                let window = DateWindow(start: t("10:00"), end: t("11:00"), strictStartDate: strictStart, strictEndDate: strictEnd)
                #expect(window.admits(start: t(s), end: t(e)) == expected[index], "\(s)–\(e) strictStart=\(strictStart) strictEnd=\(strictEnd)")
            }
        }
    }

    @Test func openBoundsDropTheirConditions() throws {
        #expect(DateWindow(start: nil, end: nil).admits(start: 0, end: 1))
        #expect(DateWindow(start: 5, end: nil).admits(start: 0, end: 5))
        #expect(!DateWindow(start: nil, end: 5).admits(start: 5, end: 6))
    }

    @Test func dateLiteralsWithoutOffsetUseTheGivenZone() throws {
        let paris = TimeZone(identifier: "Europe/Paris")!
        #expect(PredicateValue.parseDate("2024-01-01", timeZone: paris) == PredicateValue.parseDate("2023-12-31T23:00:00Z", timeZone: paris))
        #expect(PredicateValue.parseDate("2024-07-01T12:00", timeZone: paris) == PredicateValue.parseDate("2024-07-01T10:00:00Z", timeZone: paris))
        #expect(PredicateValue.parseDate("2024-07-01T12:00:00-0700", timeZone: paris) == PredicateValue.parseDate("2024-07-01T19:00:00Z", timeZone: paris))
        #expect(PredicateValue.parseDate("2024-13-01", timeZone: paris) == nil)
    }
}

@Suite struct QueryValidationTests {
    @Test func aKeyPathNoSelectedTypeHasIsRejected() throws {
        var query = ObjectQuery(types: ["HKWorkoutTypeIdentifier"])
        query.predicate = try PredicateParser.parse("quantity > \"5 km\"")
        #expect(throws: QueryPredicateError.self) { try QueryExecutor(query).validate() }
        query.types = ["HKWorkoutTypeIdentifier", "HKQuantityTypeIdentifierDistanceWalkingRunning"]
        try QueryExecutor(query).validate()
    }

    @Test func aQuantityLiteralInAnIncompatibleUnitIsRejected() throws {
        var query = ObjectQuery(types: ["HKQuantityTypeIdentifierHeartRate"])
        query.predicate = try PredicateParser.parse("quantity > \"5 km\"")
        #expect(throws: QueryPredicateError.self) { try QueryExecutor(query).validate() }
        query.predicate = try PredicateParser.parse("quantity > \"2 count/s\"")
        try QueryExecutor(query).validate()
    }

    @Test func anIncompatibleOutputUnitIsRejected() throws {
        var query = ObjectQuery(types: ["HKQuantityTypeIdentifierBodyMass"])
        query.outputUnit = try HealthUnit("km")
        #expect(throws: QueryError.self) { try QueryExecutor(query).validate() }
        query.outputUnit = try HealthUnit("lb")
        try QueryExecutor(query).validate()
        let converted = try QueryExecutor(query).transform(Sample.quantity("HKQuantityTypeIdentifierBodyMass", value: "1", unit: "kg"))
        guard case .quantitySample(let q) = converted else {
            Issue.record("converting a quantity sample gave something else")
            return
        }
        #expect(q.quantity.unit == "lb")
        #expect(abs(q.quantity.value.value - 2.2046226218487757) < 1e-12)
    }

    @Test func sourcesMatchLoosely() {
        var query = ObjectQuery()
        query.sources = ["simon's iphone"]
        #expect(QueryExecutor(query).admits(Sample.quantity(source: "Simon’s\u{00A0}iPhone")))
        #expect(!QueryExecutor(query).admits(Sample.quantity(source: "Simon’s iPad")))
    }
}

