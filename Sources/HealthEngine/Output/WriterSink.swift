import HealthModel
import HealthOutput

/// Feeds a writer what passed a gate.
final class WriterSink: ObjectSink {
    let writer: any ObjectWriter
    private(set) var hasBegun = false

    init(_ writer: any ObjectWriter) { self.writer = writer }

    func exportDidBegin(_ header: ExportHeader) throws {
        hasBegun = true
        try writer.begin(header)
    }

    @inline(__always)
    func consume(_ object: HealthObject) throws {
        try writer.write(object)
    }
}
