import FuzzSupport
import HealthQuery

/// Anchor files: whatever the bytes, an anchor or an `AnchorError`; what decodes re-encodes
/// to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, count)
    guard let anchor = try? QueryAnchor(decoding: bytes) else { return 0 }
    if anchor.encoded() != bytes { fatalError("a decoded anchor does not encode to its bytes") }
    return 0
}

FuzzDriver.run(test)
