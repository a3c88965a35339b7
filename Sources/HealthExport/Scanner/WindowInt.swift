/// An `Int` kept in 32 bits: an offset or a count within one window of the scanner, which
/// never reaches 2 GiB (a window is a chunk, or an element of at most
/// `ExportBodyScanner.maximumElementBytes` and a chunk).
///
/// Halves what a scanned element's events and attributes take (`ScannedUnit`: a workout of
/// 90,000 inline route points holds 180,000 events), while the scanner reads and writes plain
/// `Int`s: the narrowing is in this one place, not at every field.
@propertyWrapper
struct WindowInt {
    private var stored: Int32

    @inline(__always)
    init(wrappedValue: Int) {
        stored = Int32(truncatingIfNeeded: wrappedValue)
    }

    var wrappedValue: Int {
        @inline(__always) get { Int(stored) }
        @inline(__always) set { stored = Int32(truncatingIfNeeded: newValue) }
    }
}
