import Foundation
import HealthTestSupport
import Testing

/// `healthport mcp` as a process: JSON-RPC on standard input and output, nothing else on
/// standard output, errors before serving as exit statuses.
@Suite struct MCPCommandTests {
    static let store: String = {
        let folder = try! Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("health.sqlite").path
        _ = try! healthport("import", sampleZip, "--store", path, "-q")
        return path
    }()

    /// Sends `lines`, keeps the input open a moment (the server stops at its end), and
    /// returns what the server printed.
    static func serve(_ lines: [String], policy: String) throws -> CommandRunner.Result {
        let script = "{ printf '%s\\n' \"$@\"; sleep 2; } | '\(healthportBinary.path)' mcp --store '\(store)' --policy '\(policy)'"
        return try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script, "mcp-test"] + lines)
    }

    static func messages(_ result: CommandRunner.Result) throws -> [[String: Any]] {
        try result.stdoutText.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON-RPC: \(line)")
        }
    }

    @Test func toolsAnswerOverStandardIOAndMalformedInputIsAJSONRPCError() throws {
        let folder = try Fixtures.temporaryDirectory()
        let policy = folder.appendingPathComponent("assistant.json").path
        #expect(try healthport("auth", "request", "--policy", policy, "--consumer", "Test", "--read", "StepCount", "--grant").status == 0)
        let result = try Self.serve([
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "{ this is not JSON",
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"query_samples","arguments":{"types":["StepCount"],"pageSize":2}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"request_authorization","arguments":{"read":["HeartRate"]}}}"#,
        ], policy: policy)
        #expect(result.status == 0, "\(result.stderrText)")
        let messages = try Self.messages(result)
        func response(_ id: Int) -> [String: Any]? { messages.first { ($0["id"] as? Int) == id } }
        #expect(messages.contains { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }, "a parse error")
        let page = try #require((response(2)?["result"] as? [String: Any])?["content"] as? [[String: Any]])
        let text = try #require(page.first?["text"] as? String)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(answer["count"] as? Int == 2)
        #expect(answer["nextCursor"] is String)
        #expect(response(3)?["error"] != nil, "an unknown tool is a JSON-RPC error")
        let refused = try #require(response(4)?["result"] as? [String: Any])
        #expect(refused["isError"] as? Bool == true, "no elicitation: a tool error")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
        #expect(try AuthorizationPolicyText.read(policy).contains("HeartRate") == false, "nothing written")
    }

    @Test func aMissingStoreOrAnInvalidPolicyStopsBeforeServing() throws {
        let folder = try Fixtures.temporaryDirectory()
        let missing = try healthport("mcp", "--store", folder.appendingPathComponent("none.sqlite").path, "--policy", "p.json")
        #expect(missing.status == 66)
        #expect(missing.stdout.isEmpty)
        let invalid = folder.appendingPathComponent("invalid.json")
        try Data("{\"version\": 9}".utf8).write(to: invalid)
        let result = try healthport("mcp", "--store", Self.store, "--policy", invalid.path)
        #expect(result.status == 78, "\(result.stderrText)")
        #expect(result.stdout.isEmpty)
        // Standard input carries the protocol: the export must be a file.
        #expect(try healthport("mcp", "-", "--policy", "p.json").status == 64)
        #expect(try healthport("mcp", sampleZip, "--store", Self.store, "--policy", "p.json").status == 64)
    }
}

enum AuthorizationPolicyText {
    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
}
