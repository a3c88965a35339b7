import HealthModel
import HealthOutput

/// A writer that keeps the objects it is given, in order, for runs that answer with values
/// (`SampleQueryRun.objects`) rather than bytes.
final class CollectingObjectWriter: ObjectWriter {
    private(set) var objects: [HealthObject] = []

    func begin(_ header: ExportHeader) throws {}
    func write(_ object: HealthObject) throws { objects.append(object) }
    func finish() throws {}
    func abandon() { objects = [] }
}
