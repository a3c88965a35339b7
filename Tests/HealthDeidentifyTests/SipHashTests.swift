import Testing

@testable import HealthDeidentify

/// The uuid re-derivation's function against the reference implementation's vectors
/// (`vectors_sip128` of github.com/veorq/SipHash: key 00…0f, message 00…(n−1)).
struct SipHashTests {
    let function = SipHash128(key: Array(0..<16))

    @Test(arguments: [
        (0, [0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55, 0x02, 0x93]),
        (1, [0xda, 0x87, 0xc1, 0xd8, 0x6b, 0x99, 0xaf, 0x44, 0x34, 0x76, 0x59, 0x11, 0x9b, 0x22, 0xfc, 0x45]),
        (2, [0x81, 0x77, 0x22, 0x8d, 0xa4, 0xa4, 0x5d, 0xc7, 0xfc, 0xa3, 0x8b, 0xde, 0xf6, 0x0a, 0xff, 0xe4]),
        (3, [0x9c, 0x70, 0xb6, 0x0c, 0x52, 0x67, 0xa9, 0x4e, 0x5f, 0x33, 0xb6, 0xb0, 0x29, 0x85, 0xed, 0x51]),
    ] as [(Int, [UInt8])])
    func referenceVectors(length: Int, expected: [UInt8]) {
        #expect(function.tag(Array(0..<UInt8(length))) == expected)
    }

    @Test func theTwoWordPathIsTheByteOne() {
        let message: [UInt8] = Array(0..<16)
        let (a, b) = function.tag(SipHash128.word(message, 0), SipHash128.word(message, 8))
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: a >> (8 * UInt64($0))) } + (0..<8).map { UInt8(truncatingIfNeeded: b >> (8 * UInt64($0))) }
        #expect(bytes == function.tag(message))
    }
}
