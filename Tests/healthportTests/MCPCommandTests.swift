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

    /// `healthport mcp` is `healthport-mcp`, found beside `healthport` (a link to it on PATH
    /// finds the real folder); without it, one line and status 70, never a half-started server.
    @Test func theServerIsHealthportMCPBesideTheBinary() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("none.sqlite").path
        // Through a symbolic link in another folder: healthport-mcp is found beside the target.
        let link = folder.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: link.appendingPathComponent("healthport").path, withDestinationPath: healthportBinary.path)
        let served = try CommandRunner.run(link.appendingPathComponent("healthport"), ["mcp", "--store", store, "--policy", "p.json"])
        #expect(served.status == 66, "healthport-mcp ran and found no store: \(served.stderrText)")
        #expect(served.stderrText.contains("no store here"))
        // healthport-mcp itself takes the same arguments.
        let direct = try CommandRunner.run(
            healthportBinary.deletingLastPathComponent().appendingPathComponent("healthport-mcp"), ["--store", store, "--policy", "p.json"])
        #expect(direct.status == 66)
        // A copy of healthport alone, without its server beside it.
        let alone = folder.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: healthportBinary, to: alone.appendingPathComponent("healthport"))
        let missing = try CommandRunner.run(alone.appendingPathComponent("healthport"), ["mcp", "--store", store, "--policy", "p.json"])
        #expect(missing.status == 70)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderrText.contains("healthport-mcp") && missing.stderrText.split(separator: "\n").count == 1, "\(missing.stderrText)")
        // Its options are still checked here first.
        #expect(try CommandRunner.run(alone.appendingPathComponent("healthport"), ["mcp", "-", "--policy", "p.json"]).status == 64)
    }
}

enum AuthorizationPolicyText {
    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
}

/// `healthport mcp` as a client meets it: messages written while the server answers, answers
/// read at the client's pace (audit item 10).
@Suite struct MCPFramingCommandTests {
    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}"#
    static let initialized = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#

    /// A running `healthport mcp` with its three pipes.
    final class Server: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        private let lock = NSLock()
        private var errorBytes = Data()
        private var pending: [UInt8] = []

        init(policy: String) throws {
            // Writing to a server that has ended must fail, not end the test process.
            signal(SIGPIPE, SIG_IGN)
            process.executableURL = healthportBinary
            process.arguments = ["mcp", "--store", MCPCommandTests.store, "--policy", policy]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            Thread.detachNewThread { [errors] in
                let data = CommandRunner.readToEnd(errors.fileHandleForReading)
                self.lock.withLock { self.errorBytes = data }
            }
        }

        var stderrText: String { lock.withLock { String(decoding: errorBytes, as: UTF8.self) } }

        /// Writes `lines` from another thread (the server may answer while it reads them).
        func send(_ lines: [String]) {
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            let descriptor = input.fileHandleForWriting.fileDescriptor
            Thread.detachNewThread {
                // By hand, retrying EINTR (Foundation's write gives up on it).
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { return }
                        offset += written
                    }
                }
            }
        }

        /// The next `count` lines of standard output, read `piece` bytes at a time with a pause
        /// of `pause` microseconds after each read; fewer at the end of the output, or when
        /// none came for `limit` (a liveness bound, not a measurement).
        func readLines(_ count: Int, piece: Int = 65536, pause: UInt32 = 0, limit: Duration = .seconds(120)) -> [[UInt8]] {
            var lines: [[UInt8]] = []
            var buffer = [UInt8](repeating: 0, count: piece)
            let descriptor = output.fileHandleForReading.fileDescriptor
            var searched = 0  // bytes of `pending` known to hold no newline
            while lines.count < count {
                if let newline = pending[searched...].firstIndex(of: 0x0A) {
                    lines.append(Array(pending[..<newline]))
                    pending.removeSubrange(...newline)
                    searched = 0
                    continue
                }
                searched = pending.count
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, Int32(limit.components.seconds * 1000)) == 0 { break }
                let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, piece) }
                if read < 0 && errno == EINTR { continue }
                if read <= 0 { break }
                pending += buffer[..<read]
                if pause > 0 { usleep(pause) }
            }
            return lines
        }

        /// The exit status, or `nil` when the server still runs after `limit` (it is then
        /// killed): a liveness bound, not a measurement.
        func exitStatus(within limit: Duration = .seconds(120)) -> Int32? {
            let deadline = ContinuousClock.now.advanced(by: limit)
            while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
            guard !process.isRunning else {
                process.terminate()
                process.waitUntilExit()
                return nil
            }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static func grantedPolicy() throws -> String {
        let folder = try Fixtures.temporaryDirectory()
        let policy = folder.appendingPathComponent("assistant.json").path
        let granted = try healthport("auth", "request", "--policy", policy, "--consumer", "Test", "--read", "HeartRate,StepCount", "--grant")
        #expect(granted.status == 0, "\(granted.stderrText)")
        return policy
    }

    static func json(_ line: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
    }

    /// Twelve pages of up to 256 KiB asked for at once, read by a client that takes 4 KiB at a
    /// time with pauses: every answer is one line of JSON (the SDK's transport let answers
    /// into each other's middle when the pipe was full).
    @Test func concurrentLargeAnswersToASlowClientAreEachOneLineOfJSON() throws {
        let server = try Server(policy: try Self.grantedPolicy())
        server.send([Self.initialize])
        #expect(server.readLines(1).first.flatMap(Self.json)?["id"] as? Int == 1)
        let ids = Array(2...13)
        server.send([Self.initialized] + ids.map { id in
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"query_samples","arguments":{"types":["\#(id % 2 == 0 ? "HeartRate" : "StepCount")"],"pageSize":1000}}}"#
        })
        let lines = server.readLines(ids.count, piece: 4096, pause: 500)
        #expect(lines.count == ids.count)
        let messages = lines.map(Self.json)
        #expect(messages.allSatisfy { $0 != nil }, "\(messages.filter { $0 == nil }.count) of \(lines.count) lines are not JSON")
        #expect(Set(messages.compactMap { $0?["id"] as? Int }) == Set(ids))
        #expect(lines.map(\.count).reduce(0, +) > 1_000_000, "answers large enough to fill the pipe")
        server.input.fileHandleForWriting.closeFile()
        #expect(server.exitStatus() == 0)
        #expect(server.stderrText.isEmpty, "\(server.stderrText)")
    }

    /// A client that goes away (its end of standard output closed) while its input is still
    /// open: the server ends quietly instead of serving nobody.
    @Test func aClientThatLeavesEndsTheServerQuietly() throws {
        let server = try Server(policy: try Self.grantedPolicy())
        server.send([Self.initialize])
        #expect(server.readLines(1).count == 1)
        server.output.fileHandleForReading.closeFile()
        server.send([Self.initialized] + (2...5).map { id in
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"query_samples","arguments":{"types":["HeartRate"],"pageSize":1000}}}"#
        })
        #expect(server.exitStatus() == 0, "still serving a client that left")
        #expect(server.stderrText.isEmpty, "\(server.stderrText)")
        server.input.fileHandleForWriting.closeFile()
    }

    /// A message past the documented bound (32 MiB, healthport-mcp(1)) is answered with
    /// JSON-RPC's Invalid Request for its id, without being held, and the next is served.
    @Test func aMessageOverTheBoundIsAnsweredAndTheNextIsServed() throws {
        let server = try Server(policy: try Self.grantedPolicy())
        server.send([Self.initialize])
        #expect(server.readLines(1).count == 1)
        let head = #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"describe","arguments":{"pad":""#
        let huge = head + String(repeating: "x", count: 32 * 1024 * 1024) + #""}}}"#
        server.send([Self.initialized, huge, #"{"jsonrpc":"2.0","id":8,"method":"tools/list"}"#])
        let messages = server.readLines(2).map(Self.json)
        #expect(messages.map { $0?["id"] as? Int } == [7, 8])
        let error = messages.first??["error"] as? [String: Any]
        #expect(error?["code"] as? Int == -32600)
        #expect((error?["message"] as? String)?.contains("longer than 33554432 bytes") == true, "\(String(describing: error))")
        #expect(((messages.last??["result"] as? [String: Any])?["tools"] as? [Any])?.isEmpty == false)
        server.input.fileHandleForWriting.closeFile()
        #expect(server.exitStatus() == 0)
    }
}
