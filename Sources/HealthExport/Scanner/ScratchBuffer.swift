#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthJSON

/// A growable buffer of trivial values that the scanner empties and refills for every element:
/// `append` is a capacity check and a store, with no uniqueness check or bounds check on the
/// way (an `Array` append paid both, about 2 % of a conversion in `perf`: the scanner appends
/// an event per tag and an attribute per attribute, a few dozen times a record).
///
/// Noncopyable: it owns its memory (freed in `deinit`), inside one `ScannedUnit` owned by one
/// scanner, so there is no reference to count either. Indices are checked only by the code that
/// made them.
struct ScratchBuffer<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `length` values from `source`.
    @inline(__always)
    mutating func append(_ source: UnsafePointer<Element>, count length: Int) {
        guard length > 0 else { return }
        if count + length > capacity { grow(to: count + length) }
        (base + count).initialize(from: source, count: length)
        count += length
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// The last value; the buffer must not be empty.
    @inline(__always)
    var last: Element { base[count - 1] }

    @inline(__always)
    mutating func removeLast() {
        count -= 1
    }

    @inline(__always)
    mutating func removeAll() {
        count = 0
    }

    /// Goes back to holding the first `newCount` values it held at some earlier point, as they
    /// were then: the values after them are dropped, and ones removed since (`removeLast`, which
    /// only lowers the count) are back, provided nothing was appended over them. The scanner's
    /// checkpoints rely on this (`ScannedUnit.restore`): an end tag read after a checkpoint has
    /// removed its element from the open ones, and a rewind must put it back.
    @inline(__always)
    mutating func rewind(to newCount: Int) {
        precondition(newCount <= capacity)
        count = newCount
    }

    private mutating func grow(to needed: Int) {
        UnsafeMutablePointer.grow(&base, count: count, capacity: &capacity, toHold: needed)
    }
}
