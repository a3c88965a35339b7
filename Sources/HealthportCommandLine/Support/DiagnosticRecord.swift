import Foundation
import HealthEngine
import HealthExport
import HealthModel

/// One diagnostic as data (`--diagnostics json`): a JSON object on one line of standard error,
/// made from the typed values the run reported (a `RunError`'s category, HealthKit code,
/// argument and column; a warning's `SourceLocation`; a progress report's counts), never from
/// the wording of a message. healthport(1), DIAGNOSTICS, documents every field.
///
/// ```
/// {"type":"error","category":"invalidRequest","status":64,"message":"expected a value after '>='",
///  "argument":"predicate","option":"--where","column":13,"healthKitCode":"errorInvalidArgument",
///  "healthKitCodeValue":3,"context":["quantity >= ","            ^"]}
/// ```
package struct DiagnosticRecord: Encodable, Sendable {
    /// Where a diagnostic points: the file as the text form names it
    /// (`export.zip(apple_health_export/export.xml)` for a member of an archive), and the
    /// 1-based line and column when known.
    package struct Location: Encodable, Sendable, Equatable {
        package var file: String
        package var line: Int?
        package var column: Int?
    }

    /// `error`, `warning`, `note` or `progress`.
    package var type: String
    package var message: String?
    /// The engine's category of a failure (`invalidRequest`, `malformedInput`, …).
    package var category: String?
    /// The exit status the command ends with (errors only).
    package var status: Int32?
    /// HealthKit's `HKError.Code` name and value, for the failures HealthKit reports with one.
    package var healthKitCode: String?
    package var healthKitCodeValue: Int?
    /// The part of the request at fault (`predicate`, `unit`, `anchor`, …), and the option
    /// that gave it on this command line.
    package var argument: String?
    package var option: String?
    /// The 1-based column in the argument's text (a predicate's).
    package var column: Int?
    package var location: Location?
    /// The lines that show the fault (a predicate with a caret under it).
    package var context: [String]?
    /// The signal that stopped the run (errors with category `cancelled`).
    package var signal: Int32?
    /// Progress: bytes read, of how many when known, and objects read so far.
    package var bytesRead: Int64?
    package var totalBytes: Int64?
    package var objects: Int?

    private init(type: String) { self.type = type }

    /// A failed run, with everything its typed error carries.
    package init(_ failure: RunError) {
        self.init(type: "error")
        message = OptionNames.render(failure.text)
        category = Self.name(of: failure.category)
        status = ExitStatus.of(failure.category).rawValue
        if let code = failure.healthKitCode {
            healthKitCode = "\(code)"
            healthKitCodeValue = code.rawValue
        }
        if let argument = failure.argument {
            self.argument = argument.rawValue
            option = OptionNames.option(for: argument)
        }
        column = failure.column
        location = failure.location.map(Self.location(parsing:))
        context = failure.context.isEmpty ? nil : failure.context
    }

    /// A warning the reader met, at its first location.
    package init(_ warning: ExportWarning) {
        self.init(type: "warning")
        message = OptionNames.render(warning.text)
        location = warning.location.map { place in
            Location(file: place.file + (place.member.map { "(\($0))" } ?? ""), line: place.line, column: place.column)
        }
    }

    /// A line of text of the given type (`warning`, `note`, or an `error` a batch reports for
    /// one input and goes on), with the location the text form would print before it.
    package init(type: String, message: String, location: String? = nil) {
        self.init(type: type)
        self.message = message
        self.location = location.map(Self.location(parsing:))
    }

    /// The run stopped by a signal: status 128 + the signal's number.
    package init(signal number: Int32, message: String) {
        self.init(type: "error")
        self.message = message
        category = Self.name(of: .cancelled)
        status = 128 + number
        signal = number
    }

    /// An error ArgumentParser found in the arguments (status 64, or 0 for help): its first
    /// line, and the usage lines after it as context.
    package init(usage lines: [String], status: Int32) {
        self.init(type: "error")
        message = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst("Error: ".count)) : $0 } ?? ""
        category = Self.name(of: .invalidRequest)
        self.status = status
        let rest = lines.dropFirst().filter { !$0.isEmpty }
        context = rest.isEmpty ? nil : Array(rest)
    }

    /// How far a read has come.
    package init(progress: RunProgress) {
        self.init(type: "progress")
        bytesRead = progress.bytesRead
        totalBytes = progress.totalBytes
        objects = progress.objects
    }

    /// The record as one line of JSON (no line break). Foundation's encoder escapes every
    /// control character, so a name from a stranger's archive cannot drive a terminal.
    package var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return #"{"type":"error","message":"unencodable diagnostic"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// The category's name in the JSON: the engine's case names, spelled out here so that a
    /// renamed case cannot change the output.
    package static func name(of category: RunError.Category) -> String {
        switch category {
        case .invalidRequest: "invalidRequest"
        case .malformedInput: "malformedInput"
        case .inputNotFound: "inputNotFound"
        case .cannotCreateOutput: "cannotCreateOutput"
        case .ioFailure: "ioFailure"
        case .notAuthorized: "notAuthorized"
        case .authorizationCancelled: "authorizationCancelled"
        case .invalidConfiguration: "invalidConfiguration"
        case .cancelled: "cancelled"
        case .outputClosed: "outputClosed"
        case .internalError: "internalError"
        }
    }

    /// A location as the engine gives it (`path`, `path:LINE` or `archive(member):LINE:COLUMN`):
    /// the line and column are the last one or two `:N` parts, the file is the rest (a path may
    /// hold colons itself).
    package static func location(parsing text: String) -> Location {
        var parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        while numbers.count < 2, parts.count > 1, let last = parts.last, !last.isEmpty, last.allSatisfy(\.isASCII),
            let number = Int(last)
        {
            numbers.insert(number, at: 0)
            parts.removeLast()
        }
        return Location(file: parts.joined(separator: ":"), line: numbers.first, column: numbers.count > 1 ? numbers[1] : nil)
    }
}
