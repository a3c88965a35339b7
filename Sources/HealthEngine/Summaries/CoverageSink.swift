import HealthModel
import HealthQuery

/// After the gate: every object into a coverage tally, so the coverage describes what was
/// written (de-identified objects on their shifted days, only what the policy lets through).
final class CoverageSink: ObjectSink {
    let collector = CoverageCollector()

    func exportDidBegin(_ header: ExportHeader) throws {}

    func consume(_ object: HealthObject) throws { collector.add(object) }
}
