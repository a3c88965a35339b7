import Foundation
import HealthEngine
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore
import HealthTestSupport
import Testing

/// Swift source split into what a scan needs: the code with comments blanked out (string
/// literals kept), and the string literals' own words (interpolations blanked out).
///
/// A small lexer rather than a regular expression, because a regular expression cannot tell
/// `"--where"` in a message from `--where` in a doc comment, nor a `//` inside a string from a
/// comment: it handles `//` and nested `/* */` comments, `"…"`, `"""…"""` and raw `#"…"#`
/// strings, escapes, and interpolations (themselves code, with strings inside).
struct SwiftSource {
    /// The code, comments replaced by spaces (line breaks kept, so line numbers hold).
    private(set) var code = ""
    /// Each literal's words, with the line it starts on; an interpolation reads as `\(…)`.
    private(set) var literals: [(line: Int, text: String)] = []

    init(_ text: String) {
        let characters = Array(text)
        var index = 0
        var line = 1
        lexCode(characters, &index, &line, until: nil)
    }

    private mutating func lexCode(_ c: [Character], _ i: inout Int, _ line: inout Int, until closing: Character?) {
        var depth = 0
        while i < c.count {
            let ch = c[i]
            if ch == "\n" { line += 1 }
            if let closing, ch == closing, depth == 0 { return }
            if ch == "(" { depth += 1 }
            if ch == ")" { depth -= 1 }
            if ch == "/", i + 1 < c.count, c[i + 1] == "/" {
                while i < c.count, c[i] != "\n" {
                    code.append(" ")
                    i += 1
                }
                continue
            }
            if ch == "/", i + 1 < c.count, c[i + 1] == "*" {
                var nesting = 0
                repeat {
                    if c[i] == "/", i + 1 < c.count, c[i + 1] == "*" {
                        nesting += 1
                        code.append("  ")
                        i += 2
                    } else if c[i] == "*", i + 1 < c.count, c[i + 1] == "/" {
                        nesting -= 1
                        code.append("  ")
                        i += 2
                    } else {
                        if c[i] == "\n" { line += 1 }
                        code.append(c[i] == "\n" ? "\n" : " ")
                        i += 1
                    }
                } while nesting > 0 && i < c.count
                continue
            }
            if ch == "\"" || (ch == "#" && i + 1 < c.count && (c[i + 1] == "\"" || c[i + 1] == "#")) {
                lexString(c, &i, &line)
                continue
            }
            code.append(ch)
            i += 1
        }
    }

    private mutating func lexString(_ c: [Character], _ i: inout Int, _ line: inout Int) {
        let startLine = line
        var hashes = 0
        while i < c.count, c[i] == "#" {
            hashes += 1
            code.append("#")
            i += 1
        }
        let multiline = i + 2 < c.count && c[i] == "\"" && c[i + 1] == "\"" && c[i + 2] == "\""
        let quotes = multiline ? 3 : 1
        code.append(contentsOf: String(repeating: "\"", count: quotes))
        i += quotes
        var text = ""
        func closes(at j: Int) -> Bool {
            guard j + quotes + hashes <= c.count else { return false }
            for k in 0..<quotes where c[j + k] != "\"" { return false }
            for k in 0..<hashes where c[j + quotes + k] != "#" { return false }
            return true
        }
        while i < c.count {
            if closes(at: i) {
                code.append(contentsOf: String(repeating: "\"", count: quotes) + String(repeating: "#", count: hashes))
                i += quotes + hashes
                break
            }
            let ch = c[i]
            // An escape is `\` followed by as many `#` as the string has.
            if ch == "\\", i + hashes + 1 < c.count, (0..<hashes).allSatisfy({ c[i + 1 + $0] == "#" }) {
                let next = c[i + 1 + hashes]
                if next == "(" {
                    code.append(contentsOf: "\\" + String(repeating: "#", count: hashes) + "(")
                    i += hashes + 2
                    text += "\\(…)"
                    lexCode(c, &i, &line, until: ")")
                    code.append(")")
                    i += 1
                    continue
                }
                text.append(next)
                code.append(contentsOf: String(c[i...(i + 1 + hashes)]))
                i += hashes + 2
                continue
            }
            if ch == "\n" { line += 1 }
            text.append(ch)
            code.append(ch)
            i += 1
        }
        literals.append((startLine, text))
    }

    /// Every `.swift` file under `folders` (relative to the package root), with its source.
    static func files(under folders: [String]) throws -> [(path: String, source: SwiftSource)] {
        var result: [(String, SwiftSource)] = []
        for folder in folders {
            let root = Fixtures.packageRoot.appendingPathComponent(folder)
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
            for case let relative as String in enumerator where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                result.append((folder + "/" + relative, SwiftSource(text)))
            }
        }
        return result
    }
}

/// The faces read errors' fields, never their words; the engine's words spell no face's
/// options. (Issue 37, item 2.)
@Suite struct TypedErrorTests {
    // MARK: No face reads an error's text

    static let faces = [
        "Sources/HealthKitPort", "Sources/HealthAssistant", "Sources/healthport", "Sources/healthport-mcp", "Sources/HealthportCommandLine",
    ]

    /// The rule, on code without comments. A face must not:
    /// 1. call a string search (`hasPrefix`, `hasSuffix`, `contains`, `range(of:)`,
    ///    `firstRange`, `replacingOccurrences`, `starts(with:)`, `split`, `components`) on an
    ///    error's words: anything named `message`, `description`, `localizedDescription`,
    ///    `errorDescription` or `location`;
    /// 2. search any text for a literal an error's words would hold: a HealthKit code name
    ///    (`error` and a capital), a command (`auth `, `healthport `), or — outside the command
    ///    line, which parses its own arguments (`Suggestions.swift`) — an option (`--`); this
    ///    catches a search on a copy of the message (`text.contains("error…")`);
    /// 3. rewrite text from a table: `replacingOccurrences(of:)` with anything but a literal.
    /// What a face needs is a field: `healthKitCode`, `argument`, `column`, `category`, or a
    /// part of the message held as a value (`DiagnosticText`).
    static let rules: [(String, String)] = [
        (
            "a string search on an error's words",
            #"\b(message|description|localizedDescription|errorDescription|location)\s*[?!]?\s*\.\s*(hasPrefix|hasSuffix|contains|range|firstRange|replacingOccurrences|starts|split|components)\s*\("#
        ),
        (
            "a search for a code name or a command",
            #"\.\s*(hasPrefix|hasSuffix|contains|range|firstRange|replacingOccurrences|starts)\s*\(\s*(of:\s*|with:\s*)?"(error[A-Z]|auth |healthport )"#
        ),
        ("a rewrite from a table", #"replacingOccurrences\s*\(\s*of:\s*[^"\s]"#),
    ]

    /// Rule 2 for the faces that have no options of their own to parse.
    static let optionSearch = (
        "a search for an option",
        #"\.\s*(hasPrefix|hasSuffix|contains|range|firstRange|replacingOccurrences|starts)\s*\(\s*(of:\s*|with:\s*)?"--"#
    )

    static func violations(in source: SwiftSource, parsesOptions: Bool = false) -> [String] {
        var found: [String] = []
        for (name, pattern) in rules + (parsesOptions ? [] : [optionSearch]) {
            let regex = try! NSRegularExpression(pattern: pattern)
            let code = source.code
            for match in regex.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                let range = Range(match.range, in: code)!
                let line = code[..<range.lowerBound].filter { $0 == "\n" }.count + 1
                found.append("line \(line): \(name): \(code[range])")
            }
        }
        return found
    }

    @Test func noFaceSearchesAnErrorsText() throws {
        let files = try SwiftSource.files(under: Self.faces)
        #expect(files.count > 30, "the faces' sources were not found")
        for (path, source) in files {
            for violation in Self.violations(in: source, parsesOptions: path.hasPrefix("Sources/healthport/") || path.hasPrefix("Sources/HealthportCommandLine/")) {
                Issue.record("\(path) \(violation)")
            }
        }
    }

    /// The rule finds each of the six sites the faces had before errors carried fields (copied
    /// from HKHealthStore.swift and ToolFailure.swift as they were), so the test above can fail.
    @Test func theRuleFindsTheSitesThatReadMessages() {
        let before = [
            #"case .notAuthorized: code = error.message.hasPrefix("errorAuthorizationDenied") ? .a : .b"#,
            #"text = error.message.hasPrefix("error") ? error.message : "errorInvalidArgument: " + error.message"#,
            #"for (option, argument) in Self.argumentNames { text = text.replacingOccurrences(of: option, with: "'\(argument)'") }"#,
            #"if let location = error.location, location.hasPrefix("--where") {"#,
            #"if text.contains("auth request-per-object") {"#,
            #"if error.category == .notAuthorized, text.contains("errorAuthorizationNotDetermined") {"#,
        ]
        for line in before {
            #expect(!Self.violations(in: SwiftSource(line)).isEmpty, "not caught: \(line)")
        }
        // Not violations: a comment, a shell quote, a search in data that is not an error's.
        for line in [
            #"// error.message.hasPrefix("errorAuthorizationDenied")"#,
            #"return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'""#,
            #"if exports.contains("-") { throw ValidationError("--partition reads files") }"#,
        ] {
            #expect(Self.violations(in: SwiftSource(line)).isEmpty, "flagged: \(line)")
        }
        // The command line parses its own options; the other faces have none to look for.
        let optionSearch = #"guard argument.hasPrefix("--") else { continue }"#
        #expect(Self.violations(in: SwiftSource(optionSearch), parsesOptions: true).isEmpty)
        #expect(!Self.violations(in: SwiftSource(optionSearch)).isEmpty)
    }

    // MARK: The engine's words name no face's options

    static let library = [
        "Sources/HealthModel", "Sources/HealthJSON", "Sources/HealthExport", "Sources/HealthQuery", "Sources/HealthOutput",
        "Sources/HealthStore", "Sources/HealthDeidentify", "Sources/HealthEngine",
    ]
    // HealthReport is left out: its literals are HTML and CSS, whose custom properties are
    // spelled `--name`.

    /// An option as the command line spells it: `--` and a lower-case letter, at the start of
    /// the words or after a space, a quote or a bracket (so `a--b` in data is not one).
    static func spellsAnOption(_ text: String) -> Bool {
        text.range(of: #"(^|[\s('"`\[])--[a-z]"#, options: .regularExpression) != nil
    }

    /// Data compiled into the library, not words it says: the FHIR code table (its LOINC display
    /// "Heart rate --resting" is LOINC's text, not an option).
    static let vendoredData: Set<String> = ["Sources/HealthOutput/FHIR/Mapping/FHIRCodeTable.swift"]

    @Test func noLibraryStringSpellsAnOption() throws {
        let files = try SwiftSource.files(under: Self.library)
        #expect(files.count > 100, "the library's sources were not found")
        #expect(files.filter { Self.vendoredData.contains($0.path) }.count == Self.vendoredData.count, "a file left out is gone")
        var literals = 0
        for (path, source) in files where !Self.vendoredData.contains(path) {
            for (line, text) in source.literals {
                literals += 1
                if Self.spellsAnOption(text) { Issue.record("\(path):\(line): \(text)") }
            }
        }
        #expect(literals > 1000)
    }

    /// The lexer and the pattern catch what the library held before (copied from
    /// SortDescriptor.swift, StoreChangesRun.swift, BatchConversionRun.swift), and not the
    /// same words in a comment.
    @Test func theOptionScanFindsOptionsInMessages() {
        let before = [
            #"throw QueryError(.errorInvalidArgument, "--sort: unknown key '\(argument.prefix(80))' (see healthport-predicates(7))")"#,
            #"throw RunError(.invalidRequest, "--follow writes NDJSON to standard output (use --format ndjson and no --output)")"#,
            #"throw QueryError(.errorInvalidArgument, "\(other) and \(input) both give person '\(key)'; name persons with --person-id FILE")"#,
            #"location: "--where" + (error.column.map { ":1:\($0)" } ?? ""),"#,
            "message: \"\"\"\n    give --tz for daylight saving time\n    \"\"\"",
        ]
        for text in before {
            #expect(SwiftSource(text).literals.contains { Self.spellsAnOption($0.text) }, "not caught: \(text)")
        }
        for text in [
            #"/// One `--sort KEY[:asc|desc]`"#, #"// give --tz"#, #"/* "--where" */ let a = 1"#,
            #"throw QueryError(.errorInvalidArgument, "\(argument: .sort): unknown key")"#,
            #"let url = "http://example.com" // --where"#,
        ] {
            #expect(!SwiftSource(text).literals.contains { Self.spellsAnOption($0.text) }, "flagged: \(text)")
        }
    }

    // MARK: What the library's failures carry

    /// Runs `body`, which must fail, and returns its failure as every face receives it.
    static func failure(_ body: () throws -> Void) throws -> RunError {
        do {
            try body()
        } catch {
            return RunError(error)
        }
        Issue.record("did not fail")
        throw CancellationError()
    }

    /// Failures that once spelled an option: each carries the part at fault and HealthKit's
    /// code as fields, and its message speaks of the part in plain words (written out here by
    /// hand, as the command line's message with its options replaced).
    @Test func failuresCarryTheirArgumentAsAValue() throws {
        let sort = try Self.failure { _ = try ObjectSortDescriptor(parsing: "colour") }
        #expect(sort.argument == .sort && sort.healthKitCode == .errorInvalidArgument && sort.category == .invalidRequest)
        #expect(sort.message == "the sort: unknown key 'colour' (see healthport-predicates(7))")

        var unitOnly = ObjectQuery()
        unitOnly.outputUnit = try HealthUnit("kg")
        let unit = try Self.failure { try QueryExecutor(unitOnly).validate() }
        #expect(unit.argument == .unit && unit.healthKitCode == .errorInvalidArgument)
        #expect(unit.message == "the unit needs the types: name the quantity types whose unit to change")

        let partition = try Self.failure { _ = try PartitionLayout(parsing: "person,person") }
        #expect(partition.argument == .partition && partition.healthKitCode == nil && partition.category == .invalidRequest)
        #expect(partition.message == "the partition: 'person' is given twice")

        let anchor = try Self.failure { _ = try ChangesAnchor.parse("five", for: .store("health.sqlite")) }
        #expect(anchor.argument == .anchor && anchor.healthKitCode == .errorInvalidArgument)
        #expect(anchor.message == "the anchor: 'five' is neither a store anchor nor a file")

        let store = try Self.failure { _ = try HealthStore.openForReading(at: "/nonexistent/health.sqlite") }
        #expect(store.argument == .store && store.category == .inputNotFound && store.healthKitCode == nil)
        #expect(store.message == "/nonexistent/health.sqlite: no store here (create one with an import of an export)")

        let changes = try Self.failure { _ = try ChangeWriter.make(.export, to: .standardOutput) }
        #expect(changes.argument == .format)
        #expect(changes.message == "the export format writes objects, not changes: use ndjson, json, csv, parquet or fhir")

        let perObject = try Self.failure {
            try AuthorizationPolicy.validateRequest(share: [], read: ["HKVisionPrescriptionTypeIdentifier"])
        }
        #expect(perObject.argument == .readTypes && perObject.healthKitCode == .errorInvalidArgument && perObject.isAuthorizationFailure)
        #expect(perObject.message == "HKVisionPrescriptionTypeIdentifier is read object by object: use a per-object authorization request")
        #expect(perObject.text.segments.contains(.request(.perObjectAuthorization)))

        let predicate = try Self.failure { _ = try PredicateParser.parse("quantity >= AND x") }
        #expect(predicate.argument == .predicate && predicate.column == 13 && predicate.location == nil)
        #expect(predicate.healthKitCode == .errorInvalidArgument && !predicate.isAuthorizationFailure)
        #expect(predicate.description == "the predicate, column 13: expected a value after '>='")
        #expect(predicate.context == ["  quantity >= AND x", "              ^"])

        var undecided = ObjectQuery(types: ["HKQuantityTypeIdentifierBodyMass"])
        undecided.policy = AuthorizationPolicy(consumer: .init(name: "Run Club"))
        let notDetermined = try Self.failure { try QueryExecutor(undecided).validate() }
        #expect(notDetermined.category == .notAuthorized && notDetermined.healthKitCode == .errorAuthorizationNotDetermined)
        #expect(notDetermined.message == "Run Club has not requested authorization to read HKQuantityTypeIdentifierBodyMass")

        let cancelled = AuthorizationRequest.Pending.cancelled
        #expect(cancelled.healthKitCode == .errorUserCanceled && cancelled.category == .authorizationCancelled)
        #expect(cancelled.message == "the request was cancelled; the policy is unchanged")

        for failure in [sort, unit, partition, anchor, store, changes, perObject, predicate, notDetermined, cancelled] {
            #expect(!Self.spellsAnOption(failure.description), "\(failure)")
            #expect(!failure.description.contains("error"), "no code in the words: \(failure)")
        }
    }

    /// A message's parts render in each face's words, and in plain words by default.
    @Test func diagnosticTextRendersItsPartsPerFace() {
        let text: DiagnosticText =
            "\(argument: .unit) needs \(argument: .types); use \(argument: .format, "ndjson", neutral: "NDJSON") or \(request: .exportArchive)"
        #expect(text.arguments == [.unit, .types, .format])
        #expect(text.neutral == "the unit needs the types; use NDJSON or a conversion to the export format")
        let cli = text.rendered(argument: { "--\($0.rawValue)" + ($1.map { " " + $0 } ?? "") }, request: { _ in "convert" })
        #expect(cli == "--unit needs --types; use --format ndjson or convert")
        let partial = text.rendered(argument: { part, _ in part == .unit ? "'unit'" : nil })
        #expect(partial == "'unit' needs the types; use NDJSON or a conversion to the export format")
        // Plain words are one segment, and equal however they were made.
        #expect(DiagnosticText("a \("b") c") == DiagnosticText("a b c"))
        #expect(DiagnosticText("a b c").segments == [.text("a b c")])
        #expect(text.prefixed(by: "x: ").neutral == "x: the unit needs the types; use NDJSON or a conversion to the export format")
    }
}
