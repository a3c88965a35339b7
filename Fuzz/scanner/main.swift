import FuzzSupport
import HealthExport
import HealthTestSupport

/// healthport's scanner against libxml2 on any bytes (issue 25's proof): the document is read by
/// libxml2 alone and by the scanner, both in pieces of a size the input itself chooses (1 to 97
/// bytes, so that every carry and handover path is met, or the reader's usual 256 KiB: libxml2
/// places some errors by where its pieces end, see `ParserDifferential`); the objects, uuids,
/// warnings, errors and their positions must be the same. One document in two that fails is
/// read again by both with salvage, which must stop at the same place with the same objects.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, count)
    let selector = bytes.isEmpty ? 0 : Int(bytes[bytes.count / 2] ^ bytes[bytes.count - 1])
    let pieces = selector % 8 == 0 ? ExportReader.chunkSize : 1 + (selector >> 1) % 97
    let reference = ParserDifferential.read(bytes, parser: .libxml2, chunkSize: pieces)
    let scanned = ParserDifferential.read(bytes, parser: .scanner, chunkSize: pieces)
    if let difference = ParserDifferential.describe(reference, scanned) {
        fatalError("the scanner differs from libxml2 (pieces of \(pieces) bytes): \(difference)")
    }
    // The scanner's own decisions (elements read, where it handed over) do not depend on pieces.
    if reference.error == nil, pieces != ExportReader.chunkSize, let parsing = scanned.parsing {
        let whole = ParserDifferential.read(bytes, parser: .scanner, chunkSize: ExportReader.chunkSize)
        if let other = whole.parsing, other.scannedElements != parsing.scannedElements || other.handover != parsing.handover {
            fatalError("the scanner decided otherwise in pieces of \(pieces) bytes: \(parsing) vs \(other)")
        }
    }
    if reference.error != nil && selector & 1 == 1 {
        let salvaged = ParserDifferential.read(bytes, parser: .libxml2, chunkSize: pieces, salvage: true)
        let scannedSalvage = ParserDifferential.read(bytes, parser: .scanner, chunkSize: pieces, salvage: true)
        if let difference = ParserDifferential.describe(salvaged, scannedSalvage) {
            fatalError("the scanner differs from libxml2 when salvaging (pieces of \(pieces) bytes): \(difference)")
        }
    }
    return 0
}

FuzzDriver.run(test)
