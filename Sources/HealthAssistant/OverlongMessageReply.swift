import Foundation

/// The answer to a message longer than the transport's bound (`LineTransport`): a JSON-RPC
/// error, code -32600 (Invalid Request), written in place of the answer the message would have
/// had. The message itself was never held whole, so it is neither parsed nor served.
///
/// The error carries the request's id when the message's first bytes show one as a top-level
/// member (`RequestIdentifier`) (clients write `id` before `params`: the SDKs' encoders put it first, or sort it
/// first), so the client's pending request ends instead of waiting; otherwise the id is
/// `null`, as JSON-RPC 2.0 asks for a request whose id cannot be read.
///
/// For example, for a 40 MB `tools/call` with id 7 under the 32 MiB bound:
///
/// ```json
/// {"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"message longer than 33554432 bytes: not read (healthport-mcp(1))","data":{"maximumBytes":33554432}}}
/// ```
enum OverlongMessageReply {
    /// JSON-RPC's Invalid Request.
    static let code = -32600

    /// The error message for a line that began with `prefix` and passed `maximumLength` bytes.
    static func message(prefix: Data, maximumLength: Int) -> Data {
        let id = RequestIdentifier.text(in: prefix) ?? "null"
        let text = """
            {"jsonrpc":"2.0","id":\(id),"error":{"code":\(code),"message":"message longer than \(maximumLength) bytes: \
            not read (healthport-mcp(1))","data":{"maximumBytes":\(maximumLength)}}}
            """
        return Data(text.utf8)
    }
}
