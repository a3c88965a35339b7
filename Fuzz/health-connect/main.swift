import FuzzSupport
import HealthConnect
import HealthModel

/// Health Connect's database reader on any bytes: the export's `health_connect_export.db`,
/// damaged, cut or rewritten (the seeds are the fixture's databases in 512-byte pages, so that
/// a mutation lands in a table's page, a column's declaration or a row's value, not only in
/// the zip around it, which the export harness reads).
///
/// What must hold, whatever the bytes:
/// - a database the reader refuses, or a row it cannot read, is a `HealthConnectError` (the
///   sinks here throw nothing of their own), never a crash, a hang or another error;
/// - the summary counts what the sink was given;
/// - a sink's own error comes back unchanged, and what the reader gave before it is what a
///   whole read gives first: the reader keeps no state between rows that a stop could skip
///   or repeat.
final class Collector: ObjectSink {
    var header: ExportHeader? = nil
    var objects: [HealthObject] = []
    func exportDidBegin(_ header: ExportHeader) throws { self.header = header }
    func consume(_ object: HealthObject) throws { objects.append(object) }
}

/// Takes `limit` objects, then throws `Stop`.
final class StoppingCollector: ObjectSink {
    struct Stop: Error {}
    let limit: Int
    var objects: [HealthObject] = []
    init(limit: Int) { self.limit = limit }
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws {
        guard objects.count < limit else { throw Stop() }
        objects.append(object)
    }
}

func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let path = FuzzDriver.file(data, count, name: "health_connect_export.db")
    let reader: HealthConnectReader
    do { reader = try HealthConnectReader(path: path) } catch { return 0 }
    let whole = Collector()
    do {
        let summary = try reader.read(into: whole)
        expect(summary.objectCount == whole.objects.count, "the summary counts \(summary.objectCount) objects, the sink was given \(whole.objects.count)")
        expect(summary.header == whole.header, "the summary's header is not the one the sink was given")
    } catch is HealthConnectError {
    } catch {
        fatalError("not a HealthConnectError: \(type(of: error)): \(error)")
    }
    // A stop half way, on a reader of its own as a second command would open it.
    guard whole.objects.count > 1, let again = try? HealthConnectReader(path: path) else { return 0 }
    let stopping = StoppingCollector(limit: whole.objects.count / 2)
    do {
        _ = try again.read(into: stopping)
        fatalError("a read went on past its sink's error")
    } catch is StoppingCollector.Stop {
    } catch {
        fatalError("the sink's error came back as \(type(of: error)): \(error)")
    }
    expect(stopping.objects == Array(whole.objects.prefix(stopping.limit)), "a read stopped at object \(stopping.limit) gave other objects first than a whole read")
    return 0
}

FuzzDriver.run(test)
