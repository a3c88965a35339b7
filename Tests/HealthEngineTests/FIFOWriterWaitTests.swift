import Foundation
import HealthEngine
import HealthTestSupport
import Testing

/// A FIFO named as the export with no program writing to it: the run's `writerWait` bounds the
/// wait (status 66 in the CLI), and its cancellation ends it. Both are the run's options,
/// passed down to the reader, never read from the environment.
@Suite struct FIFOWriterWaitTests {
    static func fifo() throws -> String {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("export.fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func conversionAndInfoGiveUpAfterTheirWriterWait() throws {
        let fifo = try Self.fifo()
        let output = URL(fileURLWithPath: fifo).deletingLastPathComponent().appendingPathComponent("out.ndjson").path
        var conversion = ConversionRun(export: fifo, output: output)
        conversion.reading.writerWait = 0.2
        var inventory = InventoryRun(input: .export(fifo))
        inventory.reading.writerWait = 0.2
        func expectGivenUp(_ error: RunError) {
            #expect(error.category == .inputNotFound)
            #expect(error.location == fifo)
            #expect(error.message.hasPrefix("no program opened the FIFO for writing within 0.2 s"), "\(error.message)")
        }
        do {
            _ = try conversion.run()
            Issue.record("converted a FIFO nobody writes to")
        } catch {
            expectGivenUp(error)
        }
        do {
            _ = try inventory.run()
            Issue.record("read a FIFO nobody writes to")
        } catch {
            expectGivenUp(error)
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func cancellationEndsTheWait() throws {
        let fifo = try Self.fifo()
        let cancellation = RunCancellation()
        cancellation.cancel()
        var run = InventoryRun(input: .export(fifo))
        run.reading.writerWait = 3600
        do {
            _ = try run.run(cancellation: cancellation)
            Issue.record("read a FIFO nobody writes to")
        } catch {
            #expect(error.category == .cancelled)
        }
    }
}
