import Foundation
import MCP
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import HealthAssistant

/// `healthport mcp`'s transport over real pipes: reading linear and bounded, every message
/// written whole and in order, a closed output the end of the connection.
@Suite(.serialized) struct LineTransportTests {
    /// A pipe's two ends, closed when done.
    final class Pipe: @unchecked Sendable {
        let read: Int32
        let write: Int32
        private var open: [Int32]
        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            (read, write, open) = (ends[0], ends[1], ends)
        }
        func close(_ end: Int32) {
            guard let index = open.firstIndex(of: end) else { return }
            open.remove(at: index)
            _ = Glibc.close(end)
        }
        deinit { open.forEach { _ = Glibc.close($0) } }

        /// Writes all of `bytes` from another thread (the reader is in this one).
        func writeInBackground(_ bytes: [UInt8], thenClose: Bool = false) {
            Thread.detachNewThread {
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let written = Glibc.write(self.write, buffer.baseAddress! + offset, buffer.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { return }
                        offset += written
                    }
                }
                if thenClose { self.close(self.write) }
            }
        }

        /// Reads up to and with the first newline.
        func readLine() -> [UInt8] {
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while true {
                let count = Glibc.read(read, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { break }
                line.append(byte)
                if byte == 0x0A { break }
            }
            return line
        }

        /// Reads to the end, `piece` bytes at a time, pausing `pause` microseconds between
        /// reads: a client slower than the server.
        func readToEnd(piece: Int, pause: UInt32) -> [UInt8] {
            var all: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: piece)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, piece) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return all }
                all += buffer[..<count]
                if pause > 0 { usleep(pause) }
            }
        }
    }

    /// Audit item 10, read side: a 6 MiB message through the transport is searched once, byte
    /// by byte (the SDK's transport searched its whole buffer after every 4 KiB read).
    @Test func aMultiMegabyteMessageIsReadLinearly() async throws {
        let input = try Pipe()
        let output = try Pipe()
        let transport = LineTransport(input: input.read, output: output.write)
        let message = LineSplitterTests.request(id: 1, length: 6 << 20)
        let small = Array(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.utf8)
        input.writeInBackground(message + [0x0A] + small + [0x0A], thenClose: true)
        var received: [Data] = []
        for try await data in await transport.receive() { received.append(data) }
        #expect(received == [Data(message), Data(small)])
        #expect(transport.bytesScanned == message.count + small.count + 2)
    }

    /// Audit item 10, write side: sixteen answers of 300 KB sent at once to a client that reads
    /// 4 KiB at a time with pauses (the pipe stays full) come out one per line, whole, in the
    /// order they were sent.
    @Test func concurrentLargeMessagesComeOutWholeToASlowReader() async throws {
        let output = try Pipe()
        let transport = LineTransport(input: -1, output: output.write)
        let reader = Task { await onThread { output.readToEnd(piece: 4096, pause: 300) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<16 {
                group.addTask {
                    let fill = String(repeating: String(UnicodeScalar(UInt8(ascii: "a") + UInt8(id))), count: 300_000)
                    try await transport.send(Data(#"{"jsonrpc":"2.0","id":\#(id),"result":{"text":"\#(fill)"}}"#.utf8))
                }
            }
            try await group.waitForAll()
        }
        await transport.disconnect()
        output.close(output.write)
        let lines = await reader.value.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(lines.count == 17, "16 messages and the empty rest after the last newline")
        var ids: Set<Int> = []
        for line in lines.dropLast() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], "a line is not JSON")
            let id = try #require(object["id"] as? Int)
            let text = try #require((object["result"] as? [String: Any])?["text"] as? String)
            #expect(text == String(repeating: String(UnicodeScalar(UInt8(ascii: "a") + UInt8(id))), count: 300_000))
            ids.insert(id)
        }
        #expect(ids == Set(0..<16))
    }

    /// A closed output (the client is gone) fails the send and ends the input too, although
    /// the client's end of it is still open: the server stops instead of serving nobody.
    @Test func aClosedOutputEndsTheConnection() async throws {
        signal(SIGPIPE, SIG_IGN)
        let input = try Pipe()
        let output = try Pipe()
        output.close(output.read)
        let transport = LineTransport(input: input.read, output: output.write)
        let messages = await transport.receive()
        await #expect(throws: (any Error).self) { try await transport.send(Data("{}".utf8)) }
        var count = 0
        for try await _ in messages { count += 1 }
        #expect(count == 0)
        await #expect(throws: (any Error).self) { try await transport.send(Data("{}".utf8)) }
    }

    /// A message over the bound is answered with JSON-RPC's Invalid Request, with its id, and
    /// the server goes on serving the next one.
    @Test func aMessageOverTheBoundIsAnsweredAndServingGoesOn() async throws {
        let input = try Pipe()
        let output = try Pipe()
        let transport = LineTransport(input: input.read, output: output.write, maximumMessageLength: 64 * 1024)
        var configuration = AssistantConfiguration(store: MCPHarness.store, policyFile: "/nonexistent/assistant.json")
        configuration.watchesStore = false
        let server = AssistantServer(configuration: configuration)
        try await server.start(transport: transport)
        let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        input.writeInBackground(Array(initialize.utf8) + [0x0A])
        let initialized = await onThread { output.readLine() }
        let lines = [
            Array(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8),
            LineSplitterTests.request(id: 7, length: 200_000),
            Array(#"{"jsonrpc":"2.0","id":8,"method":"tools/list"}"#.utf8),
        ]
        input.writeInBackground(lines.flatMap { $0 + [0x0A] }, thenClose: true)
        let reader = Task { await onThread { output.readToEnd(piece: 65536, pause: 0) } }
        await server.waitUntilCompleted()
        await server.finishCallsInFlight(limit: .seconds(5))
        await server.stop()
        output.close(output.write)
        let messages = try await ([initialized] + reader.value.split(separator: 0x0A).map(Array.init)).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
        #expect(messages.map { $0["id"] as? Int } == [1, 7, 8])
        let error = try #require(messages.first { $0["id"] as? Int == 7 }?["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32600)
        #expect((error["message"] as? String)?.contains("longer than 65536 bytes") == true)
        let tools = (messages.last?["result"] as? [String: Any])?["tools"] as? [Any]
        #expect(tools?.count == AssistantServer.tools.count)
    }

    /// Every odd id is answered (JSON-RPC's error, id `null`), never left for the client to
    /// wait for ever; two messages on one line are a parse error, not an answer with a made-up
    /// id; and serving goes on.
    @Test func aRequestWhoseIdCannotBeReadIsAnswered() async throws {
        let input = try Pipe()
        let output = try Pipe()
        let transport = LineTransport(input: input.read, output: output.write)
        var configuration = AssistantConfiguration(store: MCPHarness.store, policyFile: "/nonexistent/assistant.json")
        configuration.watchesStore = false
        let server = AssistantServer(configuration: configuration)
        try await server.start(transport: transport)
        // Each odd message, and the code JSON-RPC 2.0 gives it.
        let odd: [(String, Int)] = [
            (#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600),
            (#"[{"jsonrpc":"2.0","id":2.5,"method":"ping"}]"#, -32600),
            (#"7"#, -32600),
            (#"{"jsonrpc":"2.0","id":1e400,"method":"ping"}"#, -32700),
            (#"{"jsonrpc":"2.0","id":5,"method":"ping"}{"jsonrpc":"2.0","id":6,"method":"ping"}"#, -32700),
        ]
        let lines = odd.map(\.0) + [#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#]
        input.writeInBackground(Array(lines.joined(separator: "\n").utf8) + [0x0A], thenClose: true)
        let reader = Task { await onThread { output.readToEnd(piece: 65536, pause: 0) } }
        await server.waitUntilCompleted()
        await server.finishCallsInFlight(limit: .seconds(5))
        await server.stop()
        output.close(output.write)
        let messages = try await reader.value.split(separator: 0x0A).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
        try #require(messages.count == odd.count + 1)
        for (message, (line, code)) in zip(messages, odd) {
            #expect(message["id"] is NSNull, "\(line)")
            #expect((message["error"] as? [String: Any])?["code"] as? Int == code, "\(line)")
        }
        #expect(messages.last?["id"] as? Int == 9)
        #expect(messages.last?["result"] != nil)
    }
}

/// Runs blocking work (a pipe's reads) on a thread of its own, off Swift's cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
