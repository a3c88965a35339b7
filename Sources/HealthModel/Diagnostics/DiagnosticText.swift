/// A message's words, with the parts of the request it mentions kept as values, so that each
/// face spells them its own way.
///
/// A message such as "the unit needs the types" is written once, in the library, and read by
/// people through different faces: the command line says `--unit needs --type`, the assistant
/// `'unit' needs 'types'`. Writing either spelling into the message would make the other face
/// rewrite text it does not own (the assistant once replaced `--tz` by `'timeZone'` from a
/// table). Instead the message interpolates the part as a value:
///
/// ```swift
/// throw QueryError(.errorInvalidArgument, "\(argument: .unit) needs \(argument: .types): name the quantity types", argument: .unit)
/// ```
///
/// and a face renders it with `rendered(argument:request:)`. Everything else — `message`,
/// `description`, logs — reads `neutral`: "the unit needs the types: name the quantity types".
///
/// Plain text (a string literal without such interpolations, or `init(_:)`) is a message with no
/// parts, rendered the same by every face.
public struct DiagnosticText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// A piece of the message.
    public enum Segment: Sendable, Hashable {
        /// Words every face shows as they are.
        case text(String)
        /// A part of the request; `value` is what the message gives it (`--format export` on
        /// the command line: `.format` with `"export"`), and `neutral` the words a face without
        /// its own name for the part reads instead (default: the part's `neutralName`, without
        /// the value).
        case argument(RequestArgument, value: String?, neutral: String?)
        /// Another request the caller can make instead.
        case request(SuggestedRequest)
    }

    /// The pieces, adjacent words merged.
    public private(set) var segments: [Segment]

    /// Plain words, with no parts of the request in them.
    public init(_ text: String) {
        segments = text.isEmpty ? [] : [.text(text)]
    }

    public init(segments: [Segment]) {
        self.segments = []
        for segment in segments { append(segment) }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(segments: stringInterpolation.segments)
    }

    private mutating func append(_ segment: Segment) {
        if case .text(let more) = segment {
            guard !more.isEmpty else { return }
            if case .text(let text)? = segments.last {
                segments[segments.count - 1] = .text(text + more)
                return
            }
        }
        segments.append(segment)
    }

    /// The message in a face's words.
    ///
    /// - Parameters:
    ///   - argument: the face's spelling of a part of the request, given the value the message
    ///     gives it; `nil` where the face has no name for the part (the neutral words are used).
    ///   - request: the face's spelling of a suggested request; `nil` for the neutral words.
    public func rendered(
        argument: (RequestArgument, String?) -> String?, request: (SuggestedRequest) -> String? = { _ in nil }
    ) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .text(let text):
                result += text
            case .argument(let part, let value, let neutral):
                result += argument(part, value) ?? neutral ?? part.neutralName
            case .request(let suggested):
                result += request(suggested) ?? suggested.neutralName
            }
        }
        return result
    }

    /// The message in no face's words: "the predicate", "the anchor", "the store".
    public var neutral: String {
        if segments.count == 1, case .text(let text) = segments[0] { return text }
        return rendered(argument: { _, _ in nil })
    }

    public var description: String { neutral }

    /// The parts of the request the message mentions, in order.
    public var arguments: [RequestArgument] {
        segments.compactMap { segment in
            if case .argument(let part, _, _) = segment { return part }
            return nil
        }
    }

    /// `prefix` followed by this message (a path before a message, say).
    public func prefixed(by prefix: String) -> DiagnosticText {
        DiagnosticText(segments: [.text(prefix)] + segments)
    }

    /// Builds the segments of an interpolated message.
    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [Segment] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            segments.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            segments.append(.text(literal))
        }

        /// A value shown the same by every face (a path, a count, a type's name).
        public mutating func appendInterpolation<T>(_ value: T) {
            segments.append(.text(String(describing: value)))
        }

        /// A part of the request, named by each face: `\(argument: .sort)`, or with the value the
        /// message gives it, `\(argument: .format, "ndjson", neutral: "NDJSON")`.
        public mutating func appendInterpolation(argument: RequestArgument, _ value: String? = nil, neutral: String? = nil) {
            segments.append(.argument(argument, value: value, neutral: neutral))
        }

        /// Another request the caller can make, named by each face.
        public mutating func appendInterpolation(request: SuggestedRequest) {
            segments.append(.request(request))
        }

        /// A part interpolated without its label would print its case name: refused.
        @available(*, unavailable, message: "name a part of the request with \\(argument:)")
        public mutating func appendInterpolation(_ argument: RequestArgument) {}
    }
}
