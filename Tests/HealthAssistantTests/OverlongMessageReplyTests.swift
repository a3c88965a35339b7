import Foundation
import Testing

@testable import HealthAssistant

/// The answer to a message over the bound: a JSON-RPC error with the request's id when its
/// first bytes show it at the top level, else `null`.
@Suite struct OverlongMessageReplyTests {
    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"#, "7"),
        (#"{"id":"call-\"8\"","method""#, #""call-\"8\"""#),
        (#" { "params" : {"id":5,"x":[1,{"id":6},"]}"]} , "id" : -15 }"#, "-15"),
        (#"{"id":0,"method":"x"}"#, "0"), (#"{"id":999999999999999999}"#, "999999999999999999"),
        // Not an integer every client reads: answered with null (the fuzzer's finding: an id of
        // -1.5e3333… was echoed, and no JSON reader could read the reply).
        (#"{"id":-1.5e3}"#, nil), (#"{"id":1.0}"#, nil), (#"{"id":1e3}"#, nil), (#"{"id":1000000000000000000}"#, nil),
        ("{\"id\":-1.5e" + String(repeating: "3", count: 200) + "}", nil),
        (#"{"method":"x","id":12"#, nil),  // the id may go on: not echoed
        (#"{"params":{"id":5"#, nil),  // only a nested id
        (#"[{"id":1}]"#, nil),  // a batch
        (#"{"id":01}"#, nil), (#"{"id":{"a":1}}"#, nil), (#"{"id":"\x"}"#, nil), ("not JSON", nil),
    ] as [(String, String?)])
    func theIdentifierIsTheTopLevelOneWrittenInFull(prefix: String, identifier: String?) {
        #expect(RequestIdentifier.text(in: Data(prefix.utf8)) == identifier)
    }

    @Test func theReplyIsAJSONRPCErrorNamingTheBound() throws {
        let reply = OverlongMessageReply.message(prefix: Data(#"{"jsonrpc":"2.0","id":"a","method":"#.utf8), maximumLength: 33_554_432)
        let object = try #require(try JSONSerialization.jsonObject(with: reply) as? [String: Any])
        #expect(object["id"] as? String == "a")
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32600)
        #expect((error["message"] as? String)?.contains("longer than 33554432 bytes") == true)
        let unknown = try #require(try JSONSerialization.jsonObject(with: OverlongMessageReply.message(prefix: Data(), maximumLength: 10)) as? [String: Any])
        #expect(unknown["id"] is NSNull)
        let huge = Data(("{\"id\":-1.5e" + String(repeating: "3", count: 200) + ",\"method\":").utf8)
        let readable = try #require(try JSONSerialization.jsonObject(with: OverlongMessageReply.message(prefix: huge, maximumLength: 10)) as? [String: Any])
        #expect(readable["id"] is NSNull)
    }
}
