import Crypto
import Foundation
import MCP

/// The position of the next page, as an opaque string: how many items the pages before it
/// held, and a digest of the call's other arguments, so a cursor is refused with a call that
/// asks something else. The policy is not part of it: every page is read under the policy as
/// it is when the page is asked for.
struct PageCursor: Equatable {
    var skip: Int
    var digest: String

    /// The digest of a call's arguments other than `cursor` and `pageSize`.
    static func digest(of arguments: [String: Value]) -> String {
        var kept = arguments
        kept["cursor"] = nil
        kept["pageSize"] = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(kept)) ?? Data()
        return SHA256.hash(data: data).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    var text: String {
        Data("v1:\(skip):\(digest)".utf8).base64EncodedString()
    }

    /// The cursor of a call, or the first page's position when it has none.
    ///
    /// - Throws: `ToolFailure` for a cursor that is not one, or belongs to other arguments.
    static func read(_ arguments: ToolArguments) throws -> PageCursor {
        let digest = digest(of: arguments.values)
        guard let text = try arguments.string("cursor") else { return PageCursor(skip: 0, digest: digest) }
        guard let data = Data(base64Encoded: text), let decoded = String(data: data, encoding: .utf8) else {
            throw ToolFailure.argument("cursor", "is not a cursor this server gave")
        }
        let parts = decoded.split(separator: ":")
        guard parts.count == 3, parts[0] == "v1", let skip = Int(parts[1]), skip >= 0 else {
            throw ToolFailure.argument("cursor", "is not a cursor this server gave")
        }
        guard parts[2] == digest else {
            throw ToolFailure.argument("cursor", "belongs to a call with other arguments: repeat the same arguments, or start without a cursor")
        }
        return PageCursor(skip: skip, digest: digest)
    }

    func next(after count: Int) -> PageCursor { PageCursor(skip: skip + count, digest: digest) }
}
