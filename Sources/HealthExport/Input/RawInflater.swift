import CZlibShim

/// zlib's inflate over raw deflate data (a zip entry's), fed input as it is read: shared by
/// the document of a whole zip (`ZipDocumentStream`) and of a cut-off one (`CutOffZip`).
final class RawInflater {
    private var stream = z_stream()
    private let output: UnsafeMutableRawPointer
    private let outputSize: Int
    /// Whether the deflate data has ended.
    private(set) var ended = false

    /// `nil` when zlib cannot start.
    init?(outputSize: Int) {
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        self.outputSize = outputSize
        output = .allocate(byteCount: outputSize, alignment: 16)
    }

    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    /// Inflates `input` whole (or up to the end of the deflate data), handing each inflated
    /// piece to `emit`.
    ///
    /// - Throws: `BadData` for data zlib refuses, or what `emit` throws.
    func inflate(_ input: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !ended, let base = input.baseAddress, input.count > 0 else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        repeat {
            stream.next_out = output.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(outputSize)
            let result = zlib_inflate(&stream)
            let produced = outputSize - Int(stream.avail_out)
            if produced > 0 { try emit(UnsafeRawBufferPointer(start: output, count: produced)) }
            if result == Z_STREAM_END {
                ended = true
                return
            }
            guard result == Z_OK || (result == Z_BUF_ERROR && stream.avail_in == 0) else { throw BadData(code: result) }
        } while stream.avail_in > 0 || stream.avail_out == 0
    }

    struct BadData: Error {
        var code: Int32
    }
}

@inline(__always)
private func zlib_inflate(_ stream: inout z_stream) -> Int32 {
    CZlibShim.inflate(&stream, Z_NO_FLUSH)
}
