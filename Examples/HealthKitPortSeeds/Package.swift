// swift-tools-version: 6.1
// The code of Apple's HealthKit documentation (the project's docs/seeds), as a package of its
// own that depends on healthport's HealthKitPort by path, the way an app's package would depend
// on it. Only the import and the lines that open the store differ from Apple's code. Build and
// run it from here:
//
//     swift run healthkitport-seeds batches ../../SampleData/export.zip
//
// `Scripts/check-seeds.sh` (run by CI) builds it and checks its answers against the command line.

import PackageDescription

let package = Package(
    name: "HealthKitPortSeeds",
    platforms: [.macOS(.v13)],
    dependencies: [
        // healthport itself, two folders up. Named explicitly: a path dependency is otherwise
        // known by its folder's name, which is whatever the clone was called.
        .package(name: "healthport", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "healthkitport-seeds",
            dependencies: [.product(name: "HealthKitPort", package: "healthport")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
