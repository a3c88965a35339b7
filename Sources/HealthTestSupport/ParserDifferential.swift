import HealthExport
import HealthModel
import HealthQuery

/// Reads one document with both parsers — libxml2 (the reference) and healthport's scanner —
/// and says where they differ: the proof that the scanner is a faster libxml2 and nothing else.
///
/// Everything a read hands to its caller is compared: the header, every object (uuids
/// included), every warning with its location and count, the error with its message and
/// location, and the summary (objects, bytes repaired and where, a fragment, what was passed
/// through, where a salvaged read stopped). Both parsers read the document in pieces of each of
/// several sizes, so that every carry and handover path meets the same bytes.
///
/// Each scanner read is compared with a libxml2 read in the same pieces: libxml2's push parser
/// itself reports some errors in a malformed document at a position that depends on where its
/// pieces end (it looks ahead for a tag's end, or a section's, differently; found by
/// `Fuzz/scanner`: an "Extra content" error at 14:1 in 256 KiB pieces, at 28:21 in 12-byte
/// ones). After a handover the scanner path gives libxml2 the rest of the document cut where the
/// reference's pieces are cut, so the two agree piece for piece; a real read cuts both into the
/// reader's 256 KiB chunks.
///
/// Used by `ScannerDifferentialTests` (the samples, the generated exports, the quirks) and the
/// `scanner` fuzz harness (`Scripts/fuzz.sh scanner`).
public enum ParserDifferential {
    /// What one read gave, as comparable values.
    public struct Reading: Equatable {
        public var header: ExportHeader?
        public var objects: [HealthObject]
        /// Each warning as its caller got it (first occurrence, located), then the counts.
        public var warnings: [String]
        public var error: String?
        public var summary: [String]
        /// How the body was read (not compared: the point of the scanner).
        public var parsing: ExportReader.Parsing?

        public static func == (a: Reading, b: Reading) -> Bool {
            a.header == b.header && a.objects == b.objects && a.warnings == b.warnings && a.error == b.error
                && a.summary == b.summary
        }
    }

    final class Collector: ObjectSink {
        var header: ExportHeader? = nil
        var objects: [HealthObject] = []
        func exportDidBegin(_ header: ExportHeader) throws { self.header = header }
        func consume(_ object: HealthObject) throws { objects.append(object) }
    }

    /// Reads `bytes` (an XML document) with `parser`, pushed in pieces of `chunkSize` bytes.
    public static func read(_ bytes: [UInt8], parser: ExportXMLParser, chunkSize: Int, salvage: Bool = false) -> Reading {
        let reader = ExportReader(documentBytes: bytes, chunkSize: chunkSize)
        reader.parser = parser
        let sink = Collector()
        var warnings: [String] = []
        var reading = Reading(header: nil, objects: [], warnings: [], error: nil, summary: [])
        do {
            let summary = try reader.read(.everything, into: sink, warning: { warnings.append("\($0)") }, salvage: salvage)
            warnings += summary.warnings.map { "\($0.warning.key) x\($0.count)" }
            reading.summary = [
                "objects \(summary.objectCount)", "fragment \(summary.isFragment)",
                "passed through \(summary.passedThrough.sorted { $0.key < $1.key })",
            ]
            if let stop = summary.salvageStop {
                // After a break the repairs counted depend on how far ahead the pre-filter had
                // read (a chunk), not on the document: not compared.
                reading.summary.append("salvaged up to \(stop)")
            } else {
                reading.summary.append("repaired \(summary.replacedByteCount) first at \(summary.firstReplacementOffset.map(String.init) ?? "-")")
            }
            reading.parsing = summary.parsing
        } catch {
            reading.error = "\(error)"
        }
        reading.header = sink.header
        reading.objects = sink.objects
        reading.warnings = warnings
        return reading
    }

    /// The first way a scanner read differs from the libxml2 read in the same pieces (each of
    /// `chunkSizes`), or `nil` when every read agrees.
    ///
    /// The scanner's own decisions are compared across piece sizes too: how many elements it
    /// read and where it handed over must not depend on where the pieces end. A wrong decision
    /// that only hands an element to libxml2 too early gives the same objects, so only this shows
    /// it (an end tag read just before a chunk's end was lost when the scan resumed, found by
    /// `Fuzz/scanner` when it once made the scanner accept what it should not have).
    public static func difference(_ bytes: [UInt8], chunkSizes: [Int], salvage: Bool = false) -> String? {
        var firstParsing: (chunkSize: Int, parsing: ExportReader.Parsing)? = nil
        for chunkSize in chunkSizes {
            let reference = read(bytes, parser: .libxml2, chunkSize: chunkSize, salvage: salvage)
            let scanned = read(bytes, parser: .scanner, chunkSize: chunkSize, salvage: salvage)
            if let difference = describe(reference, scanned) { return "chunks of \(chunkSize) bytes: \(difference)" }
            guard let parsing = scanned.parsing else { continue }
            if let first = firstParsing {
                if first.parsing.scannedElements != parsing.scannedElements || first.parsing.handover != parsing.handover {
                    return "the scanner decided otherwise in chunks of \(first.chunkSize) and \(chunkSize) bytes: \(first.parsing) vs \(parsing)"
                }
            } else {
                firstParsing = (chunkSize, parsing)
            }
        }
        return nil
    }

    /// What differs between the reference read and the scanner's, in a line or two.
    public static func describe(_ reference: Reading, _ scanned: Reading) -> String? {
        if reference.error != scanned.error {
            return "error: libxml2 '\(reference.error ?? "none")', scanner '\(scanned.error ?? "none")'"
        }
        if reference.header != scanned.header { return "header: \(String(describing: reference.header)) vs \(String(describing: scanned.header))" }
        if reference.objects.count != scanned.objects.count {
            return "objects: \(reference.objects.count) vs \(scanned.objects.count)"
        }
        for (index, (a, b)) in zip(reference.objects, scanned.objects).enumerated() where a != b {
            return "object \(index): \(a) vs \(b)"
        }
        if reference.warnings != scanned.warnings { return "warnings: \(reference.warnings) vs \(scanned.warnings)" }
        if reference.summary != scanned.summary { return "summary: \(reference.summary) vs \(scanned.summary)" }
        return nil
    }
}
