// swift-tools-version: 6.1
// healthport: stream Apple Health exports into a HealthKit-shaped model and out as JSON, NDJSON and CSV.

import Foundation
import PackageDescription

/// How the two programs people run are linked on Linux: with `-z now` (and the `-z relro` the
/// linker already applies), so the GOT is read-only before `main` runs, as Debian's hardening
/// flags make it (lintian's hardening-no-bindnow). In the manifest rather than in the packaging
/// script, so the README's release build is the very build the Debian package and the wheel take
/// (Scripts/package-deb.sh): one build, not two. A link flag only; executables alone, never a
/// library a consumer of HealthKitPort would link.
let programLinkerSettings: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now"], .when(platforms: [.linux]))]

let package = Package(
    name: "healthport",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "healthport", targets: ["healthport"]),
        .executable(name: "healthport-mcp", targets: ["healthport-mcp"]),
        .library(name: "HealthModel", targets: ["HealthModel"]),
        .library(name: "HealthJSON", targets: ["HealthJSON"]),
        .library(name: "HealthExport", targets: ["HealthExport"]),
        .library(name: "HealthConnect", targets: ["HealthConnect"]),
        .library(name: "HealthTables", targets: ["HealthTables"]),
        .library(name: "HealthOutput", targets: ["HealthOutput"]),
        .library(name: "HealthQuery", targets: ["HealthQuery"]),
        .library(name: "HealthStore", targets: ["HealthStore"]),
        .library(name: "HealthEngine", targets: ["HealthEngine"]),
        .library(name: "HealthAssistant", targets: ["HealthAssistant"]),
        .library(name: "HealthKitPort", targets: ["HealthKitPort"]),
        .library(name: "HealthReport", targets: ["HealthReport"]),
        .library(name: "HealthDeidentify", targets: ["HealthDeidentify"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // The MCP SDK's logging API, which the assistant's transport names (a silent logger).
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // libxml2 through pkg-config. Named CLibXML2, never `libxml2`: the macOS SDK ships a module
        // map of that name and the two would collide.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // zlib, for the one zip the zip library cannot read: one that was cut off (--salvage).
        .systemLibrary(name: "CZlibShim", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Zstandard, Parquet's default page compression (HealthOutput/Parquet).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        // Value types that mirror HealthKit. Depends only on swift-crypto, for the SHA-256 behind
        // derived object uuids (identity must be computable from a model value alone).
        .target(
            name: "HealthModel",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // Reading an export: zip, folder, bare XML or stdin, streamed through libxml2's push parser;
        // healthport's own NDJSON through the JSON codec (HealthOutput/JSON). Objects and side
        // files leave it only through a query's gate (HealthQuery), installed by the reader.
        .target(name: "HealthJSON", dependencies: ["HealthModel"]),
        // Android's Health Connect export (`health_connect_export.db`, SQLite) read into the same
        // model, through SQLite's C API as the store reaches it (GRDB's SQLite): opened
        // read-only, checked against AOSP's layout, bounded. Knows nothing of zips or readers.
        .target(
            name: "HealthConnect",
            dependencies: ["HealthModel", .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "HealthExport",
            dependencies: ["HealthModel", "HealthQuery", "HealthJSON", "HealthConnect", "CLibXML2", "ZIPFoundation", "CZlibShim"]
        ),
        // De-identification (issue 43): the key file, the per-person date shift, keyed
        // pseudonyms (HMAC-SHA256) and uuids (SipHash-2-4-128), the metadata allow-list, Safe
        // Harbor's characteristics, and the one transform that applies them, which the query's
        // gate calls after the policy. Model values in, model values out: no I/O but the key file.
        .target(
            name: "HealthDeidentify",
            dependencies: ["HealthModel", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The single read path from parsed objects to output: type selection, predicates, the
        // authorization policy, and de-identification after it.
        .target(
            name: "HealthQuery",
            dependencies: ["HealthModel", "HealthDeidentify", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The summary tables' schema (days, nights, coverage, the day table, workouts): their
        // columns and cells, shared by the writers and the store, so the store links no writer.
        .target(name: "HealthTables", dependencies: ["HealthModel", "HealthJSON"]),
        // Writers: NDJSON, JSON, CSV, Parquet (zstd, gzip) and Apple's export.xml over one
        // buffered byte writer, and export archives (ZIPFoundation); the JSON codec (encoder and
        // decoder) of the model.
        .target(
            name: "HealthOutput",
            dependencies: ["HealthModel", "HealthJSON", "HealthTables", "ZIPFoundation", "CZstd", "CZlibShim", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The embedded store: imports into SQLite (through GRDB), queries and anchored changes
        // over it. Bodies are healthport's JSON, so the same writers and predicates apply. It
        // takes any object source and never links the XML reader. swift-crypto's extras for
        // the one AES block that makes anchors opaque (`StoreAnchor`).
        .target(
            name: "HealthStore",
            dependencies: [
                "HealthModel", "HealthQuery", "HealthJSON", "HealthTables",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The report a person opens: what it shows as values, and those values as one
        // self-contained HTML file (inline CSS and SVG, nothing fetched).
        .target(
            name: "HealthReport",
            dependencies: ["HealthModel", "HealthJSON", "HealthOutput"]
        ),
        // The runs every face calls (the CLI today; a server, a report, a Swift API next):
        // conversion, sample queries, anchored changes, batches, statistics, the inventory,
        // imports. Each reads an object source through the one policy gate (`QueryGate`), reports
        // through values, can be cancelled, and throws `RunError`.
        .target(
            name: "HealthEngine",
            dependencies: [
                "HealthModel", "HealthJSON", "HealthExport", "HealthQuery", "HealthOutput", "HealthStore", "HealthReport",
                "HealthDeidentify", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The assistant interface: a Model Context Protocol server (the official Swift SDK, stdio
        // only) whose tools call the engine's runs through the one policy gate, and whose two
        // request tools ask the person through MCP elicitation before the policy is written.
        .target(
            name: "HealthAssistant",
            dependencies: [
                "HealthModel", "HealthQuery", "HealthOutput", "HealthStore", "HealthEngine",
                .product(name: "MCP", package: "swift-sdk"), .product(name: "Crypto", package: "swift-crypto"),
                // The SDK's transport protocol hands a `Logger` out; healthport's gives a silent one.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // HealthKit's own Swift API (`HKHealthStore`, `HKSampleQueryDescriptor`, …) over exports and
        // stores: a thin layer whose every call is one of the engine's runs, so HealthKit code
        // runs on Linux against a person's real data with one changed line (the store's opening).
        .target(
            name: "HealthKitPort",
            dependencies: ["HealthModel", "HealthQuery", "HealthStore", "HealthEngine"]
        ),
        // The command-line tool: argument parsing and one call into the engine, nothing else.
        // What both executables share: their options, diagnostics, exit statuses and version.
        .target(
            name: "HealthportCommandLine",
            dependencies: [
                "HealthModel", "HealthExport", "HealthQuery", "HealthOutput", "HealthStore", "HealthEngine",
                "HealthDeidentify", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The tool. It links no assistant: `healthport mcp` runs `healthport-mcp`, installed
        // beside it, so the MCP SDK's FoundationNetworking and libcurl stay out of every other
        // command (`docs/ARCHITECTURE.md`).
        .executableTarget(
            name: "healthport",
            dependencies: [
                "HealthportCommandLine", "HealthModel", "HealthExport", "HealthQuery", "HealthOutput", "HealthStore",
                "HealthEngine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: programLinkerSettings
        ),
        // The assistant's server (`healthport mcp`, healthport-mcp(1)).
        .executableTarget(
            name: "healthport-mcp",
            dependencies: [
                "HealthportCommandLine", "HealthAssistant", "HealthEngine", "HealthExport", "HealthStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "MCP", package: "swift-sdk"),
            ],
            // The MCP SDK imports FoundationNetworking (for its HTTP transport; healthport's server
            // speaks over stdio only). With Swift's runtime linked statically (the README's build,
            // the Debian package's), FoundationNetworking is a static library that calls libcurl,
            // which then has to be named on the link line; dynamically linked, it is named anyway.
            linkerSettings: programLinkerSettings + [.linkedLibrary("curl", .when(platforms: [.linux]))]
        ),
        // Deterministic synthetic exports with known answers, for tests, SampleData and benchmarks.
        .target(
            name: "HealthTestSupport",
            dependencies: ["HealthModel", "HealthExport", "HealthQuery", "ZIPFoundation"]
        ),
        .executableTarget(name: "generate-export", dependencies: ["HealthTestSupport", "HealthModel"]),
        .testTarget(name: "HealthModelTests", dependencies: ["HealthModel"]),
        .testTarget(name: "HealthConnectTests", dependencies: ["HealthConnect", "HealthModel", "HealthTestSupport"]),
        .testTarget(
            name: "HealthJSONTests",
            dependencies: [
                "HealthJSON", "HealthModel", "HealthExport", "HealthOutput", "HealthQuery", "HealthTestSupport",
            ]
        ),
        .testTarget(
            name: "HealthExportTests",
            dependencies: ["HealthExport", "HealthModel", "HealthQuery", "HealthTestSupport", "ZIPFoundation"]
        ),
        .testTarget(
            name: "HealthQueryTests",
            dependencies: ["HealthQuery", "HealthModel", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "HealthDeidentifyTests",
            dependencies: [
                "HealthDeidentify", "HealthModel", "HealthTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "HealthOutputTests",
            dependencies: [
                "HealthOutput", "HealthJSON", "HealthModel", "HealthQuery", "HealthExport", "HealthTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "HealthStoreTests",
            dependencies: [
                "HealthStore", "HealthExport", "HealthQuery", "HealthModel", "HealthTestSupport", "HealthJSON", "HealthOutput", "HealthTables",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "HealthEngineTests",
            dependencies: ["HealthEngine", "HealthModel", "HealthExport", "HealthQuery", "HealthOutput", "HealthStore", "HealthTestSupport"]
        ),
        .testTarget(
            name: "HealthAssistantTests",
            dependencies: [
                "HealthAssistant", "HealthEngine", "HealthModel", "HealthQuery", "HealthTestSupport",
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        .testTarget(
            name: "HealthKitPortTests",
            // `healthport` itself: one test imports from another process while a query follows the store.
            dependencies: ["HealthKitPort", "HealthEngine", "HealthQuery", "HealthTestSupport", "healthport", "healthport-mcp"]
        ),
        .testTarget(
            name: "healthportTests",
            dependencies: [
                "HealthTestSupport", "HealthExport", "HealthModel", "HealthQuery", "healthport", "healthport-mcp", "ZIPFoundation",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer harnesses (`Fuzz/`), only when `Scripts/fuzz.sh` builds them: they need
// `-sanitize=fuzzer,address` on every module, which ordinary builds must not carry.
if ProcessInfo.processInfo.environment["HEALTHPORT_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport", path: "Fuzz/Support"))
    // The store harnesses' shared reads and export; built with `-enable-testing`, it reads the
    // store's internals (`@testable`).
    package.targets.append(
        .target(
            name: "FuzzStoreSupport",
            dependencies: ["HealthStore", "HealthQuery", "HealthModel", "HealthJSON", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Fuzz/StoreSupport"))
    let harnesses: [(String, [Target.Dependency])] = [
        ("export", ["HealthExport", "HealthModel"]),
        ("health-connect", ["HealthConnect", "HealthModel"]),
        ("predicate", ["HealthQuery", "HealthModel"]),
        ("policy", ["HealthQuery"]),
        ("anchor", ["HealthQuery"]),
        ("gpx", ["HealthExport"]),
        ("ecg", ["HealthExport"]),
        ("json", ["HealthExport", "HealthModel", "HealthJSON", "HealthOutput"]),
        ("scanner", ["HealthExport", "HealthTestSupport"]),
        ("store", ["FuzzStoreSupport", "HealthStore", .product(name: "GRDB", package: "GRDB.swift")]),
        ("store-upgrade", ["FuzzStoreSupport", "HealthStore", .product(name: "GRDB", package: "GRDB.swift")]),
        ("mcp-framing", ["HealthAssistant"]),
    ]
    for (name, dependencies) in harnesses {
        package.targets.append(.executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport"] + dependencies, path: "Fuzz/\(name)"))
    }
}
