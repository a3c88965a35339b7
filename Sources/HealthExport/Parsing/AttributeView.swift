#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An element's attributes, without copying them: `count` slots of five pointers each, as
/// libxml2's SAX2 hands them over (local name, prefix, namespace URI, value start, value end).
///
/// The layout is the contract for every parser: libxml2 fills it itself, at no cost; a second
/// parser fills a reused slot buffer, pointing names at NUL-terminated copies (an export's
/// attribute names are a small fixed vocabulary) and values into its own buffer, with prefix and
/// URI `nil`. Values are not NUL-terminated and live only during the callback.
struct AttributeView {
    let slots: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    /// Slots per attribute.
    static let slotsPerAttribute = 5

    init(slots: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) {
        self.slots = slots
        self.count = count
    }

    @inline(__always)
    func name(_ index: Int) -> UnsafeRawBufferPointer {
        guard let p = slots?[index * 5] else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: p, count: strlen(p))
    }

    @inline(__always)
    func value(_ index: Int) -> UnsafeRawBufferPointer {
        guard let start = slots?[index * 5 + 3], let end = slots?[index * 5 + 4] else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: start, count: start.distance(to: end))
    }
}
