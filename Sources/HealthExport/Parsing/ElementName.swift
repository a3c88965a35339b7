#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An element's local name as bytes, valid during the callback only.
struct ElementName {
    let bytes: UnsafeRawBufferPointer

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    @inline(__always)
    func equals(_ literal: StaticString) -> Bool {
        literal.utf8CodeUnitCount == bytes.count
            && memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
