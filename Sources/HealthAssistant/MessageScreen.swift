import Foundation

/// What the transport answers itself, before the MCP SDK sees a message: a line that is not
/// one JSON value, and a request whose id the SDK cannot hold.
///
/// **Why.** The SDK (swift-sdk 0.12.1) holds ids as a string or an `Int`. A request with any
/// other id (`1.5`, `1e400`, `12345678901234567890`, `true`, `[1]`, `{}`) failed to decode
/// as a request and was taken for a notification: nothing was answered, and the client waited
/// for ever. A line holding two messages was answered with an id the SDK made up, and an id
/// `null` with `""`. JSON-RPC 2.0 asks for an error in each case, with the id `null` when it
/// cannot be read: -32700 (Parse error) for a line that is not JSON, -32600 (Invalid Request)
/// for an id that is not a string or an integer.
///
/// For example, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}` is answered with:
///
/// ```json
/// {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the id must be a string of at most 256 bytes or an integer of at most 18 digits (healthport-mcp(1))"}}
/// ```
enum MessageScreen {
    /// JSON-RPC's Parse error.
    static let parseErrorCode = -32700
    /// JSON-RPC's Invalid Request.
    static let invalidRequestCode = -32600

    /// The answer to `message` when the transport must give it (the message then goes no
    /// further); `nil` for a message to hand to the server.
    static func refusal(of message: Data) -> Data? {
        guard let value = try? JSONSerialization.jsonObject(with: message, options: [.fragmentsAllowed]) else {
            return reply(code: parseErrorCode, message: "not one JSON value that can be read")
        }
        switch value {
        case let object as [String: Any]:
            return hasUnreadableIdentifier(object, text: message) ? invalidIdentifier : nil
        case let batch as [Any]:
            // A batch (JSON-RPC 2.0; MCP before 2025-06-18): each request's id is checked
            // alike, and one the SDK cannot hold refuses the whole batch.
            for case let object as [String: Any] in batch {
                guard let text = try? JSONSerialization.data(withJSONObject: object) else { return invalidIdentifier }
                if hasUnreadableIdentifier(object, text: text) { return invalidIdentifier }
            }
            return nil
        default:
            return reply(code: invalidRequestCode, message: "a message must be a JSON object")
        }
    }

    /// Whether the object has an `id` member that is `null` or not a string or an integer
    /// the SDK reads (`RequestIdentifier`, from the bytes as written).
    private static func hasUnreadableIdentifier(_ object: [String: Any], text: Data) -> Bool {
        guard let identifier = object["id"] else { return false }
        if identifier is NSNull { return true }
        return RequestIdentifier.text(in: text) == nil
    }

    private static let invalidIdentifier = reply(
        code: invalidRequestCode, message: "the id must be a string of at most 256 bytes or an integer of at most 18 digits")

    private static func reply(code: Int, message: String) -> Data {
        Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":\#(code),"message":"\#(message) (healthport-mcp(1))"}}"#.utf8)
    }
}
