import HealthModel

/// Where in an input something happened: a file, optionally a member of an archive, and a
/// 1-based line and column.
///
/// Printed in make's `archive(member)` notation: `export.zip(apple_health_export/export.xml):1834:27`.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The path the user gave, or `<stdin>`.
    public var file: String
    /// The member inside an archive, when the input is a zip.
    public var member: String?
    public var line: Int?
    public var column: Int?

    public init(file: String, member: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.member = member
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = file
        if let member { text += "(\(member))" }
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}

/// A failure to read an export. One type for the module, shaped like GRDB's `DatabaseError`:
/// a code to switch on, a location, and a one-line message that names no personal data beyond
/// what locates the fault.
public struct ExportError: LocatedError {
    public enum Code: Sendable, Hashable {
        /// The input does not exist or cannot be opened.
        case inputNotFound
        /// The input exists but is not an Apple Health export (nor a zip or folder holding one).
        case notAnExport
        /// A zip or folder that holds no export document at all (an empty folder, one of other
        /// files): what a watcher skips without calling it damaged.
        case noExportDocument
        /// The XML is not well-formed, or is cut off.
        case malformedXML
        /// An attribute holds a value of the wrong form (a bad date or number).
        case invalidAttribute
        /// A line of healthport's NDJSON is not JSON, or not an object of its schema.
        case malformedJSON
        /// The zip is damaged or cut off, or uses a feature that cannot be read.
        case malformedArchive
        /// A path inside the export points outside it.
        case unsafeMemberPath
        /// A size, depth or count limit protecting memory was exceeded.
        case limitExceeded
        /// Reading failed at the operating-system level.
        case ioError
    }

    public var code: Code
    public var location: SourceLocation?
    /// Lower case, no trailing period; the parts of the request it mentions (the salvage
    /// option) are values, so each face names them and the library names none.
    public var text: DiagnosticText

    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.init(code, DiagnosticText(message), at: location)
    }

    public init(_ code: Code, _ text: DiagnosticText, at location: SourceLocation? = nil) {
        self.code = code
        self.text = text
        self.location = location
    }

    /// The message in no face's words.
    public var message: String { text.neutral }

    /// The part of the request at fault: the input, always (the location says where in it).
    public var argument: RequestArgument { .input }

    /// The location, as make prints a member of an archive: `export.zip(export.xml):1834:27`.
    public var place: String? { location?.description }
}

/// Something worth telling the person that does not stop the read: a quirk met, a repair made,
/// an element kind passed through. The reader reports each kind once, with the first location,
/// and counts the rest (`ReadSummary.warnings`).
public struct ExportWarning: Sendable, CustomStringConvertible {
    /// Groups repeats: one message per key.
    public var key: String
    /// The message, with the parts of the request it mentions as values (`DiagnosticText`).
    public var text: DiagnosticText
    public var location: SourceLocation?

    public init(key: String, message: String, location: SourceLocation?) {
        self.init(key: key, text: DiagnosticText(message), location: location)
    }

    public init(key: String, text: DiagnosticText, location: SourceLocation?) {
        self.key = key
        self.text = text
        self.location = location
    }

    /// The message in no face's words.
    public var message: String { text.neutral }

    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }
}
