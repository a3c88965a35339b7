import Foundation
import Testing
import HealthExport
import HealthModel
import HealthTestSupport

/// The real public exports of ../shared/samples (with their licences); skipped without them.
@Suite(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"))
struct SampleExportTests {
    @Test(arguments: [
        ("dogsheep-healthkit-to-sqlite/export.xml", 5),
        ("dogsheep-healthkit-to-sqlite/zip_contents", 5),
        ("tdda-applehealthdata/export6s3sample.xml", 18),
        ("aleksi-applehealth/testdata.xml", 2),
        ("alxdrcirilo-apple-health-parser/export.xml", 8),
        ("alxdrcirilo-apple-health-parser/export.zip", 8),
        ("opendroid-hk/sampleexport.xml", 29),
        ("opendroid-hk/sampleexport-2.xml", 43),
        ("opendroid-hk/audio_exposure.xml", 4951),
    ])
    func everySampleReadsCompletely(path: String, objects: Int) throws {
        let result = try read(.path(sample(path)))
        #expect(result.summary.objectCount == objects)
        #expect(Set(result.sink.objects.map(\.uuid)).count == objects)
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func countsMatchTheElementsInTheFile() throws {
        // audio_exposure.xml: one Record per line that starts with <Record.
        let text = try String(contentsOfFile: sample("opendroid-hk/audio_exposure.xml"), encoding: .utf8)
        let records = text.components(separatedBy: "<Record ").count - 1
        let result = try read(.path(sample("opendroid-hk/audio_exposure.xml")))
        #expect(result.sink.countsByType["HKQuantityTypeIdentifierEnvironmentalAudioExposure"] == records)
        // Device strings differ in their address on every record and in software version over
        // time: one physical device, one Device value per software version, never per address.
        let devices = result.sink.objects.compactMap(\.sampleAttributes?.device)
        #expect(Set(devices.map(\.identityKey)).count == 1)
        let softwareVersions = Set(text.components(separatedBy: "software:").dropFirst().map { $0.prefix(while: { $0 != "&" }) })
        #expect(Set(devices).count == softwareVersions.count)
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func theMacOSReZipSkipsTheAppleDoubleFile() throws {
        let reader = try ExportReader(.path(sample("alxdrcirilo-apple-health-parser/export.zip")))
        #expect(reader.layout.documentPath == "apple_health_export/export.xml")
    }

    /// A zip written with data descriptors (the macOS re-zip) streams like one written without.
    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func aZipWithDataDescriptorsIsRead() throws {
        let zipped = try read(.path(sample("alxdrcirilo-apple-health-parser/export.zip")))
        let bare = try read(.path(sample("alxdrcirilo-apple-health-parser/export.xml")))
        #expect(zipped.sink.objects.count == bare.sink.objects.count && !bare.sink.objects.isEmpty)
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func legacyInlineRoutesAndAudiogramsAreModelled() throws {
        let dogsheep = try read(.path(sample("dogsheep-healthkit-to-sqlite/export.xml"))).sink.objects
        let workout = dogsheep.compactMap { if case .workout(let w) = $0 { return w } else { return nil } }.first
        #expect(workout?.routes.first?.locations.isEmpty == false)
        #expect(workout?.totalDistance != nil)
        let opendroid = try read(.path(sample("opendroid-hk/sampleexport-2.xml"))).sink.objects
        let audiogram = opendroid.compactMap { if case .audiogram(let a) = $0 { return a } else { return nil } }.first
        #expect((audiogram?.sensitivityPoints.count ?? 0) > 0)
        #expect(opendroid.contains { $0.objectType.identifier == "c" })
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"), arguments: [
        "record_body_mass.xml", "record_heart_rate.xml", "record_resting_heart_rate.xml", "record_vo2_max.xml",
        "workout_cycling.xml", "workout_running.xml", "workout_running_multiple_parts.xml", "workout_strength.xml",
        "workout_swimming.xml", "workout_walking.xml",
    ])
    func iOS26FragmentsAreRead(name: String) throws {
        let result = try read(.path(sample("nicolasreyrolle-apple-health-analyzer/exports/" + name)))
        #expect(result.summary.isFragment)
        #expect(result.summary.objectCount > 0)
        if name == "workout_running_multiple_parts.xml" {
            guard case .workout(let w)? = result.sink.objects.first else {
                Issue.record("no workout")
                return
            }
            #expect(w.routes.count == 17)
            #expect(w.workoutActivities.count == 17)
        }
    }
}
