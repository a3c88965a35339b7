// generate-export: writes deterministic synthetic Apple Health exports with known answers.
//
//   generate-export --days 365 --output big.xml                 # a bare export.xml
//   generate-export --days 30 --folder out/                     # out/apple_health_export/…
//   generate-export --days 30 --zip export.zip                  # the zip the Health app writes
//   … --manifest manifest.json                                  # what was written, per type
//   … --seed 7 --density 2 --broken-dtd --no-forbidden-characters
//   … --first-day 2024-03-25 --time-zone Europe/Paris             # the first day, the person's zone
//   … --sample                                                  # the bundled sample's (SampleData/)
import Foundation
import HealthModel
import HealthTestSupport

var options = ExportGenerator.Options()
var output: String? = nil
var folder: String? = nil
var zip: String? = nil
var manifestPath: String? = nil
var arguments = CommandLine.arguments.dropFirst()

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: generate-export [--days N] [--density N] [--seed N] [--broken-dtd] [--no-forbidden-characters] [--first-day YYYY-MM-DD] [--time-zone ZONE] [--sample] (--output FILE.xml | --folder DIR | --zip FILE.zip) [--manifest FILE]\n".utf8))
    exit(64)
}

while let argument = arguments.popFirst() {
    func value() -> String {
        guard let v = arguments.popFirst() else { usage() }
        return v
    }
    switch argument {
    case "--days": options.days = Int(value()) ?? { usage() }()
    case "--density": options.density = Int(value()) ?? { usage() }()
    case "--seed": options.seed = UInt64(value()) ?? { usage() }()
    case "--broken-dtd": options.brokenDTD = true
    case "--first-day": options.firstDay = CalendarDate.parse(value()) ?? { usage() }()
    case "--time-zone":
        options.timeZone = value()
        if TimeZone(identifier: options.timeZone) == nil { usage() }
    case "--sample":
        let days = options.days
        options = ExportGenerator.Options.sample(days: days)
    case "--no-forbidden-characters": options.forbiddenCharacters = false
    case "--output": output = value()
    case "--folder": folder = value()
    case "--zip": zip = value()
    case "--manifest": manifestPath = value()
    default: usage()
    }
}

let generator = ExportGenerator(options: options)
var manifest: ExportGenerator.Manifest
do {
    if let output {
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: output) else { usage() }
        manifest = generator.writeDocument(to: handle)
        try handle.close()
    } else if let folder {
        manifest = try generator.writeFolder(at: URL(fileURLWithPath: folder))
    } else if let zip {
        let staging = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("generate-export-\(getpid())")
        manifest = try generator.writeFolder(at: staging)
        try ExportArchiver.zip(folder: staging, to: URL(fileURLWithPath: zip))
        try FileManager.default.removeItem(at: staging)
    } else {
        usage()
    }
    if let manifestPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(manifest).write(to: URL(fileURLWithPath: manifestPath))
    }
} catch {
    FileHandle.standardError.write(Data("generate-export: \(error)\n".utf8))
    exit(1)
}
