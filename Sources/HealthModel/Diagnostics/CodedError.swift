/// An error with a code to switch on, a message whose parts of the request travel as values
/// (`DiagnosticText`), and optionally the part of the request at fault: the shape the library's
/// errors share (`CodedFailure`: `QueryError`, `AuthorizationError`, `StoreError`), so that every
/// face renders them from their fields and none parses a message.
public protocol CodedError: Error, Sendable {
    associatedtype Code
    var code: Code { get }
    var text: DiagnosticText { get }
    init(_ code: Code, _ text: DiagnosticText, argument: RequestArgument?)
}

extension CodedError {
    /// A message that mentions no part of the request.
    public init(_ code: Code, _ message: String, argument: RequestArgument? = nil) {
        self.init(code, DiagnosticText(message), argument: argument)
    }

    /// The message in no face's words.
    public var message: String { text.neutral }
}
