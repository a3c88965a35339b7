import Foundation
import HealthModel

/// Streaming the document's bytes: from a file or standard input, inflated from a zip (on a
/// thread of its own when there are cores to spare).
extension ExportReader {
    func stream(
        _ file: FileByteSource, prefix: [UInt8], push: (UnsafeRawBufferPointer, Bool) throws -> Void
    ) throws {
        if !prefix.isEmpty { try prefix.withUnsafeBytes { try push($0, false) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try file.read(into: buffer)
            if n == 0 { break }
            try push(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), false)
        }
        try push(UnsafeRawBufferPointer(start: nil, count: 0), true)
    }

    /// Inflates on a second thread (`produce`) while this one parses (`body`): the two overlap
    /// instead of adding up.
    /// Errors of either side stop both; the inflating thread has finished with the archive
    /// when this returns.
    static func onAnotherThread(
        _ produce: @escaping (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let pipe = ChunkPipe.filled(by: produce, name: "healthport inflate")
        do {
            while let chunk = try pipe.next() { try chunk.withUnsafeBytes { try body($0) } }
        } catch {
            pipe.cancel()
            throw error
        }
    }
}
