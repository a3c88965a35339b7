import Foundation
import HealthExport
import HealthModel
import HealthQuery
import HealthStore

/// The local times an output gives (`LocalTimeSetting`): each sample's wall clock in its own
/// `HKTimeZone`, else in the person's zone, decided as every summary decides it.
///
/// The person's zone is the one asked for (`--tz`); over the store, the store's (the zone its
/// summaries are cut in; under a policy, decided from what the policy lets through); over an
/// export, the zone its sleep and workouts name most (`TimeZoneTally`), else the export's
/// offset. An export is written as it is read, and its sleep and workouts come late in it, so
/// that zone is found by a first read of them alone (`probe`): about a third of a conversion's
/// time, which `--tz` saves. Standard input, a FIFO or a process substitution cannot be read
/// twice: there, samples that name no zone have no local times unless `--tz` is given.
///
/// A de-identified output gives none: a zone locates the person, and de-identification keeps
/// no `HKTimeZone`.
enum PersonZone {
    /// The setting for an output of `query` read from `input`.
    ///
    /// - Parameter given: the zone asked for (`--tz`), if any.
    static func setting(
        query: ObjectQuery, given: TimeZone?, input: ObjectInput, reading: ReadOptions, reporter: RunReporter,
        cancellation: RunCancellation?
    ) throws -> LocalTimeSetting {
        if query.deidentification != nil { return .none }
        if let given { return .given(personZone: given) }
        if case .export(let path) = input, !canBeReadTwice(path) { return .given(personZone: nil) }
        return .given(personZone: try probe(query: query, input: input, reading: reading, reporter: reporter, cancellation: cancellation))
    }

    /// Whether an export can be read a second time: a file or a folder, not standard input, a
    /// FIFO or a process substitution, which a first read consumes.
    static func canBeReadTwice(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var status = stat()
        guard stat(path, &status) == 0 else { return true }  // the read reports what is wrong
        let kind = status.st_mode & S_IFMT
        return kind == S_IFREG || kind == S_IFDIR
    }

    /// The zone the input's sleep and workouts name most, through the query's policy and window;
    /// else the export's offset; `nil` when neither is known.
    static func probe(
        query: ObjectQuery, input: ObjectInput, reading: ReadOptions, reporter: RunReporter, cancellation: RunCancellation?
    ) throws -> TimeZone? {
        var witnesses = query
        witnesses.types = TimeZoneTally.witnessTypes
        witnesses.predicate = nil
        witnesses.uuids = []
        witnesses.outputUnit = nil
        witnesses.deidentification = nil
        let context = try RunContext(query: witnesses, reporter: .silent, cancellation: cancellation, validates: false)
        let sink = ZoneTallySink()
        switch try OpenedInput(input, reading: reading, cancellation: cancellation, reporter: reporter) {
        case .export(let reader):
            do {
                _ = try context.read(reader).run(into: sink, salvage: true)
            } catch {
                // A damaged export: the zone is what was read up to the damage, which the
                // run's own read then reports where it is (or salvages up to it).
                if cancellation?.isCancelled == true { throw error }
            }
        case .store(let store):
            // The store's own zone is a fact about all of it: the owner's only.
            if context.disclosure.exportFacts, let zone = try store.summaryTimeZone() { return zone }
            try store.read(query: context.executor, into: sink, isCancelled: cancellation?.check)
        }
        if let zone = sink.tally.mostFrequent { return zone }
        return sink.exportOffset.flatMap { TimeZone(secondsFromGMT: Int($0)) }
    }
}

/// Counts the `HKTimeZone`s of the samples it is given, and keeps the export's offset.
private final class ZoneTallySink: ObjectSink {
    var tally = TimeZoneTally()
    var exportOffset: Int32?

    func exportDidBegin(_ header: ExportHeader) throws {
        exportOffset = header.exportDate?.utcOffsetSeconds
        // A Health Connect export's records carry their own offsets (`RecordClockZone`).
        tally.countsOffsets = header.platform == .healthConnect
    }

    func consume(_ object: HealthObject) throws {
        if let sample = object.sampleAttributes { tally.count(sample) }
    }
}
