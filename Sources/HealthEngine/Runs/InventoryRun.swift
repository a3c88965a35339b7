import HealthExport
import HealthModel
import HealthQuery
import HealthStore

/// What an export or the store holds (`healthport info`, the assistant's `describe`): its
/// inventory through the query's gate, as an `ExportInfo` value. Under a policy a type the
/// consumer may not read is absent, exactly as a type without data.
public struct InventoryRun: Sendable {
    public var input: ObjectInput
    /// Usually everything; types limit the inventory to theirs (which sources and devices wrote
    /// heart rates), a policy to what its consumer may read.
    public var query: ObjectQuery
    /// Also read export_cda.xml and count its observations by type (it can be gigabytes).
    /// Refused under a policy (the CDA document holds everything and cannot be filtered), and
    /// over the store (which keeps no CDA document).
    public var includeCDA = false
    /// How the export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    /// Also tally what the export covers per type (`ExportInfo.coverage`, `info --coverage`).
    public var includeCoverage = false

    public init(input: ObjectInput, query: ObjectQuery = ObjectQuery()) {
        self.input = input
        self.query = query
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> ExportInfo {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    private func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> ExportInfo {
        let executor = QueryExecutor(query)
        let disclosure = executor.disclosure
        if includeCDA && !disclosure.exportFacts {
            throw QueryError(.errorInvalidArgument, "\(argument: .cda) reads the whole CDA document, which a policy cannot filter", argument: .cda)
        }
        try executor.validate()
        guard case .export(let export) = input else {
            if includeCDA {
                throw RunError(.invalidRequest, "\(argument: .cda) reads an export's CDA document, which the store does not keep", argument: .cda)
            }
            let store = try HealthStore.openForReading(at: input.path)
            reporter.storeOpened(store)
            let sink = InventorySink()
            let coverage = includeCoverage ? CoverageSink() : nil
            try store.read(query: executor, into: coverage.map { TeeSink(sink, $0) } ?? sink, isCancelled: cancellation?.check)
            var inventory = sink.inventory
            inventory.sort()
            var info = ExportInfo(store: input.path, format: try store.format(), header: sink.header, inventory: inventory)
            // How recent each phone's exports are: the person's history, the owner's alone.
            if disclosure.exportFacts { info.document.imports = try store.platformImports() }
            info.coverage = coverage?.collector.rows()
            return info
        }
        // The info lists the warnings itself; they are not reported as the read goes.
        var silent = reporter
        silent.warning = { _ in }
        let reader = try ExportReader.open(export, reading: reading, cancellation: cancellation)
        let sink = InventorySink()
        let coverage = includeCoverage ? CoverageSink() : nil
        let read = GatedExportRead(reader: reader, executor: executor, reporter: silent, cancellation: cancellation)
        let summary = try read.run(into: coverage.map { TeeSink(sink, $0) } ?? sink, objects: { sink.inventory.objectCount })
        var inventory = sink.inventory
        inventory.sort()
        var electrocardiograms: Int? = nil
        if !disclosure.wholeExport {
            var count = 0
            try ElectrocardiogramFiles.visible(in: reader, query: executor, reporter: silent) { _, _ in count += 1 }
            electrocardiograms = count
        }
        var info = ExportInfo(
            reader: reader, summary: summary, header: executor.header(summary.header), inventory: inventory, disclosure: disclosure,
            electrocardiograms: electrocardiograms)
        if includeCDA { info.document.cda = try CDAReader.summarize(reader, query: .everything) }
        info.coverage = coverage?.collector.rows()
        return info
    }
}

/// After the gate: the inventory's tallies, and the header as the gate let it through.
final class InventorySink: ObjectSink {
    var inventory = ExportInventory()
    var header = ExportHeader()
    func exportDidBegin(_ header: ExportHeader) throws { self.header = header }
    func consume(_ object: HealthObject) throws { inventory.add(object) }
}
