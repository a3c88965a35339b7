import Foundation
import HealthEngine
import HealthOutput
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

/// A cancelled run stops, leaves its previous output as it was and nothing beside it, and says
/// it was cancelled; errors of every module arrive as one `RunError` with a category.
@Suite struct CancellationTests {
    static let export = Fixtures.sampleData.appendingPathComponent("export.zip").path

    @Test(arguments: [ObjectFormat.ndjson, .csv])
    func aCancelledConversionLeavesThePreviousOutput(format: ObjectFormat) throws {
        let folder = try Fixtures.temporaryDirectory()
        let output = folder.appendingPathComponent("out.ndjson")
        try Data("previous\n".utf8).write(to: output)
        let cancellation = RunCancellation()
        cancellation.cancel()
        var run = ConversionRun(export: Self.export, format: format, output: format == .csv ? folder.appendingPathComponent("tables").path : output.path)
        run.reading.jobs = 1
        #expect(throws: RunError.self) { try run.run(cancellation: cancellation) }
        do {
            _ = try run.run(cancellation: cancellation)
        } catch {
            #expect(error.category == .cancelled)
        }
        // A CSV conversion creates its destination folder before it writes; cancelled, it
        // removes the folder it created: nothing is left but the previous output.
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == ["out.ndjson"])
        #expect(try String(contentsOf: output, encoding: .utf8) == "previous\n")
    }

    @Test func aCancelledImportLeavesTheStoreAsItWas() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("health.sqlite").path
        let cancellation = RunCancellation()
        cancellation.cancel()
        do {
            _ = try ImportRun(export: Self.export, store: store).run(cancellation: cancellation)
            Issue.record("the import was not cancelled")
        } catch {
            #expect(error.category == .cancelled)
        }
        // It did not exist before: a cancelled first import leaves none.
        #expect(!FileManager.default.fileExists(atPath: store))
        // An existing store stays at its anchor.
        _ = try ImportRun(export: Self.export, store: store).run()
        let before = try ChangesRun(input: .store(store), output: folder.appendingPathComponent("c0.ndjson").path).run()
        var again = ImportRun(export: Self.export, store: store)
        again.force = true
        do {
            _ = try again.run(cancellation: cancellation)
            Issue.record("the import was not cancelled")
        } catch {
            #expect(error.category == .cancelled)
        }
        let after = try ChangesRun(input: .store(store), output: folder.appendingPathComponent("c1.ndjson").path).run()
        #expect(before.added > 0 && after.newAnchor == before.newAnchor && after.added == before.added)
    }

    @Test func everyModuleErrorHasACategory() throws {
        func category(_ body: () throws -> Void) -> RunError.Category? {
            do {
                try body()
                return nil
            } catch let error as RunError {
                return error.category
            } catch {
                Issue.record("a run threw \(type(of: error)), not RunError")
                return nil
            }
        }
        #expect(category { _ = try ConversionRun(export: "/nonexistent/export.zip").run() } == .inputNotFound)
        #expect(category { _ = try ChangesRun(input: .store("/nonexistent/health.sqlite")).run() } == .inputNotFound)
        #expect(category { _ = try ConversionRun(export: Self.export, output: "/nonexistent/dir/out.ndjson").run() } == .cannotCreateOutput)
        var query = ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"])
        query.outputUnit = try HealthUnit("km")
        #expect(category { _ = try ConversionRun(export: Self.export, query: query).run() } == .invalidRequest)
        let broken = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try Data("<HealthData locale=\"en_US\">\n<Record type=\"HKQuantityTypeIdentifierStepCount\"".utf8).write(to: broken)
        #expect(category { _ = try ConversionRun(export: broken.path, output: "/dev/null").run() } == .malformedInput)
    }
}
