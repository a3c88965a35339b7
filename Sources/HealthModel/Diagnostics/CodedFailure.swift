/// A library module's failure, as one generic type: a code to switch on, the message with the
/// parts of the request it mentions as values (`DiagnosticText`), and the part of the request at
/// fault when there is one.
///
/// Each module names its own error after its codes (`QueryError`, `AuthorizationError`,
/// `StoreError` are `CodedFailure`s of their code enums), so a face still catches each by its
/// name (`catch let error as StoreError`) and switches on its codes, while the fields and their
/// initialiser are written once instead of once a module. The library names no face's options
/// (`--unit`, `'unit'`): each face says them in its own words (`RunError`, and the faces'
/// renderings of it).
public struct CodedFailure<Code: FailureCode>: CodedError, CustomStringConvertible {
    public var code: Code
    /// The message, with the parts of the request and the requests it mentions as values.
    public var text: DiagnosticText
    /// The part of the request at fault, when the code does not imply it (each code enum says
    /// which it implies).
    public var argument: RequestArgument?

    public init(_ code: Code, _ text: DiagnosticText, argument: RequestArgument? = nil) {
        self.code = code
        self.text = text
        self.argument = argument
    }

    public var description: String { code.describe(message) }
}

/// The codes of one module's `CodedFailure`.
public protocol FailureCode: Sendable, Hashable {
    /// How a failure with this code reads in a log (`description`): its message, by default.
    func describe(_ message: String) -> String
}

extension FailureCode {
    public func describe(_ message: String) -> String { message }
}
