import Foundation
import HealthJSON
import HealthTestSupport
import Testing

@testable import HealthOutput

/// A staging folder's files, more than may be open at once: each gets every byte written to
/// it, in order, while no more than the pool's limit are open.
@Suite struct FileDescriptorPoolTests {
    @Test func tenFilesThroughThreeDescriptorsKeepEveryByte() throws {
        let folder = try Fixtures.temporaryDirectory()
        let pool = FileDescriptorPool(limit: 3)
        var buffers: [OutputBuffer] = []
        for index in 0..<10 {
            buffers.append(try pool.create(folder.appendingPathComponent("t\(index)").path, name: "t\(index)", capacity: 64))
            #expect(pool.openFiles <= 3)
        }
        // Round after round, each file gets a line and flushes (so each reopens in turn).
        for round in 0..<5 {
            for (index, buffer) in buffers.enumerated() {
                buffer.append(contentsOf: Array("file \(index) round \(round)\n".utf8))
                try buffer.flush()
                #expect(pool.openFiles <= 3)
            }
        }
        for buffer in buffers { try pool.syncAndClose(buffer) }
        #expect(pool.openFiles == 0)
        for index in 0..<10 {
            let text = try String(contentsOf: folder.appendingPathComponent("t\(index)"), encoding: .utf8)
            #expect(text == (0..<5).map { "file \(index) round \($0)\n" }.joined())
        }
    }
}
