import HealthJSON
import HealthModel

/// `--format export`: Apple Health's own `export.xml`, streamed — the prolog with a correct
/// Export Version 14 DTD, `HealthData` with its locale, `ExportDate`, `Me`, then every object
/// in the order it arrives (`ExportXMLEncoder`), then the closing tag.
public final class ExportXMLWriter: StreamingObjectWriter {
    private let out: OutputBuffer
    private let destination: OpenedOutput
    private let devices = DeviceDescriptionCache()
    /// Side files the written objects refer to (`workout-routes/…`, `clinical-records/…`), as
    /// paths relative to the export folder, in first-seen order: what an archive must carry.
    public private(set) var referencedFiles: [String] = []
    private var referenced = Set<String>()

    public init(_ destination: OpenedOutput) {
        self.destination = destination
        out = destination.buffer
    }

    public func begin(_ header: ExportHeader) throws {
        ExportXMLEncoder.write(header: header, to: XMLEmitter(out))
        try out.endRecord()
    }

    public func write(_ object: HealthObject) throws {
        note(object)
        ExportXMLEncoder.write(object, to: XMLEmitter(out, devices: devices))
        try out.endRecord()
    }

    public func finish() throws {
        out.append("</HealthData>\n")
        try destination.commit()
    }

    public func abandon() {
        destination.abandon()
    }

    private func note(_ object: HealthObject) {
        func add(_ path: String?) {
            guard let path else { return }
            let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
            if referenced.insert(relative).inserted { referencedFiles.append(relative) }
        }
        switch object {
        case .workout(let w): for route in w.routes { add(route.fileReference) }
        case .clinicalRecord(let c): add(c.resourceFilePath)
        default: break
        }
    }
}
