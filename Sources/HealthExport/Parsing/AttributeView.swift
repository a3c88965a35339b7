#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An element's attributes, without copying them: `count` slots of five pointers each, as
/// libxml2's SAX2 hands them over (local name, prefix, namespace URI, value start, value end).
///
/// The layout is the contract for every parser. libxml2 fills it itself, at no cost, with
/// NUL-terminated names. healthport's scanner (`Scanner/`) fills a reused slot buffer with
/// pointers into the document itself: there a name is not NUL-terminated, so the second slot
/// holds the name's end instead of a prefix (`namesEndInSecondSlot`), which spares the scanner a
/// copy or an interning lookup per attribute. Values are not NUL-terminated and live only
/// during the callback.
struct AttributeView {
    let slots: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int
    /// Whether slot 1 is the name's end (the scanner) rather than libxml2's prefix.
    let namesEndInSecondSlot: Bool

    /// Slots per attribute.
    static let slotsPerAttribute = 5

    init(slots: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int, namesEndInSecondSlot: Bool = false) {
        self.slots = slots
        self.count = count
        self.namesEndInSecondSlot = namesEndInSecondSlot
    }

    @inline(__always)
    func name(_ index: Int) -> UnsafeRawBufferPointer {
        guard let p = slots?[index * 5] else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        if namesEndInSecondSlot, let end = slots?[index * 5 + 1] {
            return UnsafeRawBufferPointer(start: p, count: p.distance(to: end))
        }
        return UnsafeRawBufferPointer(start: p, count: strlen(p))
    }

    @inline(__always)
    func value(_ index: Int) -> UnsafeRawBufferPointer {
        guard let start = slots?[index * 5 + 3], let end = slots?[index * 5 + 4] else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: start, count: start.distance(to: end))
    }

    /// Each attribute's name, as a `String` to switch on, and its value's bytes, in document
    /// order: how the mappers of the elements other than `Record` read their attributes (the
    /// record path, the hot one, classifies the name's bytes instead).
    @inline(__always)
    func forEach(_ body: (_ name: String, _ value: UnsafeRawBufferPointer) -> Void) {
        for i in 0..<count { body(String(decoding: name(i), as: UTF8.self), value(i)) }
    }
}
