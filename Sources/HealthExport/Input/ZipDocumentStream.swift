import CZlibShim
import Foundation

/// The export document inside a zip, inflated with zlib and checked with zlib's CRC-32.
///
/// The zip library's own path was the slowest part of reading a zip: it checks the CRC with a
/// byte-at-a-time Swift loop and allocates a `Data` per chunk (18 % of a zip conversion's
/// samples in `perf`; `Benchmarks/run.sh`, task `zip`). The side files take it too
/// (`ZipSideFiles`), since the library's extraction does not stop on a damaged entry.
///
/// Reads with `pread` on a descriptor opened before anything else, so the zip on standard
/// input, spooled to a temporary file that is unlinked at once, stays readable.
final class ZipDocumentStream: @unchecked Sendable {
    let entry: ZipDirectory.Entry
    private let descriptor: Int32

    /// Opens `path` and keeps its descriptor; `nil` when it cannot be opened.
    init?(path: String, entry: ZipDirectory.Entry) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptor = fd
        self.entry = entry
    }

    /// Reads through a duplicate of `descriptor` (the side files' zip, `ZipSideFiles`); `nil`
    /// when it cannot be duplicated.
    init?(sharing descriptor: Int32, entry: ZipDirectory.Entry) {
        let fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { return nil }
        self.descriptor = fd
        self.entry = entry
    }

    deinit { close(descriptor) }

    private func readFully(_ buffer: UnsafeMutableRawPointer, count: Int, at offset: UInt64) -> Int {
        var done = 0
        while done < count {
            let n = pread(descriptor, buffer + done, count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return done
    }

    /// Streams the inflated document to `body`, chunk by chunk.
    ///
    /// - Throws: `ExportError.malformedArchive` for a damaged entry (bad header, bad deflate
    ///   data, a CRC or size other than the directory's), `.limitExceeded` when it inflates
    ///   beyond the size the directory declares; or what `body` throws.
    func stream(chunkSize: Int, location: SourceLocation, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        func damaged(_ why: String) -> ExportError {
            ExportError(.malformedArchive, "the zip archive is damaged or cut off (\(why))", at: location)
        }
        var header = [UInt8](repeating: 0, count: 30)
        guard header.withUnsafeMutableBytes({ readFully($0.baseAddress!, count: 30, at: entry.localHeaderOffset) }) == 30,
            ZipDirectory.u32(header, 0) == 0x0403_4B50
        else { throw damaged("no local header for \(entry.name.prefix(80))") }
        var position = entry.localHeaderOffset + 30 + UInt64(ZipDirectory.u16(header, 26)) + UInt64(ZipDirectory.u16(header, 28))
        var remaining = entry.compressedSize
        let input = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { input.deallocate() }
        var crc: uLong = crc32(0, nil, 0)
        var total: UInt64 = 0

        func deliver(_ bytes: UnsafeRawPointer, _ count: Int) throws {
            total += UInt64(count)
            if total > entry.uncompressedSize {
                throw ExportError(.limitExceeded, "refused: the entry inflates beyond the size its header declares", at: location)
            }
            crc = crc32(crc, bytes.assumingMemoryBound(to: Bytef.self), uInt(count))
            try body(UnsafeRawBufferPointer(start: bytes, count: count))
        }

        switch entry.method {
        case 0:
            while remaining > 0 {
                let n = readFully(input, count: Int(min(UInt64(chunkSize), remaining)), at: position)
                guard n > 0 else { throw damaged("the entry ends early") }
                position += UInt64(n)
                remaining -= UInt64(n)
                try deliver(input, n)
            }
        case 8:
            guard let inflater = RawInflater(outputSize: chunkSize) else { throw damaged("inflate could not start") }
            while !inflater.ended {
                guard remaining > 0 else { throw damaged("the deflate data ends early") }
                let n = readFully(input, count: Int(min(UInt64(chunkSize), remaining)), at: position)
                guard n > 0 else { throw damaged("the entry ends early") }
                position += UInt64(n)
                remaining -= UInt64(n)
                do {
                    try inflater.inflate(UnsafeRawBufferPointer(start: input, count: n)) { try deliver($0.baseAddress!, $0.count) }
                } catch is RawInflater.BadData {
                    throw damaged("bad deflate data")
                }
            }
        default:
            throw damaged("compression method \(entry.method)")
        }
        guard total == entry.uncompressedSize else { throw damaged("\(total) bytes inflated, \(entry.uncompressedSize) declared") }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else { throw damaged("CRC-32 mismatch") }
    }
}
