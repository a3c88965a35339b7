import HealthJSON
import HealthModel

/// Open mHealth / IEEE 1752.1 data points (`--format omh`): NDJSON, one data point per line, one
/// per object a schema takes (`OpenMHealthEncoder`), on standard output or in a file.
///
/// Data points only: there is no header line (a data point carries its own provenance, and a
/// platform that ingests them, such as JupyterHealth's Exchange, takes a stream of them). What
/// no schema takes is counted in `tally`, which the faces report as warnings.
///
/// For example:
/// ```swift
/// let writer = OpenMHealthWriter(try OutputDestination("points.ndjson").open())
/// try writer.begin(header)
/// for object in objects { try writer.write(object) }
/// try writer.finish()
/// print(writer.tally.leftOut)       // ["HKQuantityTypeIdentifierHeartRateVariabilitySDNN (no Open mHealth schema)": 12]
/// ```
public final class OpenMHealthWriter: StreamingObjectWriter {
    private let destination: OpenedOutput
    private let out: OutputBuffer
    private let encoder = OpenMHealthEncoder()

    /// The data points written per schema and what was left out.
    public var tally: OpenMHealthTally { encoder.tally }

    public init(_ destination: OpenedOutput) {
        self.destination = destination
        out = destination.buffer
    }

    /// Takes whose the points are: every header's `user_id` is the FHIR Patient's id
    /// (`FHIRPatient`: the pseudonym when de-identified, else derived from what the Patient shows).
    public func begin(_ header: ExportHeader) throws {
        encoder.userID = FHIRPatient(header).id
    }

    public func write(_ object: HealthObject) throws {
        if encoder.write(object, to: out) { try out.endRecord() }
    }

    public func finish() throws {
        try destination.commit()
    }

    public func abandon() {
        destination.abandon()
    }
}
