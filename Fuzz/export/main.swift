import FuzzSupport
import HealthExport
import HealthModel
import HealthQuery

/// The export reader on any bytes: zip, folder-less XML, fragments, NDJSON — sniffed by content.
final class NullSink: ObjectSink {
    var count = 0
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws { count += 1 }
}

final class Collector: ObjectSink {
    var header: ExportHeader? = nil
    var objects: [HealthObject] = []
    func exportDidBegin(_ header: ExportHeader) throws { self.header = header }
    func consume(_ object: HealthObject) throws { objects.append(object) }
}

/// Differential: a parallel read in 4 KiB chunks must give exactly what the sequential read
/// gives — the objects, uuids included, the header, and the error with its location.
func compareParallelRead(_ path: String, sequential: Collector, sequentialError: String) {
    guard let parallelReader = try? ExportReader(.path(path)), parallelReader.canReadInParallel else { return }
    let parallel = Collector()
    var parallelError = ""
    do {
        _ = try parallelReader.readInParallel(
            .everything, into: parallel, jobs: 2, makeChunkSink: { Collector() }, merge: { chunk, _ in parallel.objects += chunk.objects },
            chunkBytes: 4096)
    } catch {
        parallelError = "\(error)"
    }
    if sequential.objects != parallel.objects || sequential.header != parallel.header || sequentialError != parallelError {
        // Which part differs, so a finding says where to look.
        let differing = zip(sequential.objects, parallel.objects).enumerated().first { $0.element.0 != $0.element.1 }
        let part = sequential.header != parallel.header ? "the header" : differing.map { "object \($0.offset) (\($0.element.0.kindName))" } ?? "the objects' count or the error"
        fatalError("parallel read differs in \(part): \(sequential.objects.count) vs \(parallel.objects.count) objects, '\(sequentialError)' vs '\(parallelError)'")
    }
}

/// One sequential read serves both the reader's own checks and the differential's reference;
/// only an input it refuses is read again, with salvage (broken inputs go on to the cut-off zip
/// reader and the salvage path). Each reader is opened once per read, as a command opens it.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let path = FuzzDriver.file(data, count)
    guard let reader = try? ExportReader(.path(path)) else { return 0 }
    let sequential = Collector()
    var sequentialError = ""
    do { _ = try reader.read(.everything, into: sequential) } catch { sequentialError = "\(error)" }
    if !sequentialError.isEmpty, let salvaging = try? ExportReader(.path(path)) {
        _ = try? salvaging.read(.everything, into: NullSink(), salvage: true)
    }
    // Side files, as the owner's runs read them: the ECGs, the CDA document, and the files
    // the objects read refer to.
    try? reader.electrocardiograms(.everything, warning: { _ in }) { _, _ in }
    _ = reader.cdaDocument(for: .everything)
    for file in reader.layout.sideFiles.prefix(8) { _ = try? reader.sideFile(file) }
    compareParallelRead(path, sequential: sequential, sequentialError: sequentialError)
    return 0
}

FuzzDriver.run(test)
