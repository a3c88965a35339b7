import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// The writer for a format and a destination (`-` is standard output): the one place runs
/// make object writers.
enum ObjectWriters {
    /// Standard output's buffer: flushed after every record on a terminal, so a person sees
    /// each object as it is read.
    static func standardOutput() -> OutputBuffer {
        let buffer = OutputBuffer(descriptor: 1)
        buffer.flushesEveryRecord = isatty(1) == 1
        return buffer
    }

    /// How CSV lays out its tables at a path: conversion writes a folder of tables, a sorted
    /// query one table in a file.
    enum CSVLayout {
        case folderOfTables, singleTable
    }

    /// - Parameters:
    ///   - archiveSource: for export archives (`--format export` to `X.zip`): the export
    ///     whose side files the archive carries, and the files beyond those the objects name.
    static func make(
        _ format: ObjectFormat, to destination: String, csvLayout: CSVLayout,
        archive: ((ExportArchiveWriter) throws -> Void)? = nil, sideFile: ((String) throws -> Data?)? = nil
    ) throws -> any ObjectWriter {
        let toStandardOutput = destination == "-"
        switch format {
        case .ndjson:
            return toStandardOutput ? NDJSONWriter(buffer: standardOutput()) : NDJSONWriter(file: try AtomicFile(destination: destination))
        case .json:
            return toStandardOutput
                ? JSONDocumentWriter(buffer: standardOutput()) : JSONDocumentWriter(file: try AtomicFile(destination: destination))
        case .csv:
            if toStandardOutput { return CSVWriter(standardOutput: standardOutput()) }
            switch csvLayout {
            case .folderOfTables: return try CSVWriter(folder: destination)
            case .singleTable: return CSVWriter(file: try AtomicFile(destination: destination))
            }
        case .export:
            if toStandardOutput { return ExportXMLWriter(buffer: standardOutput()) }
            guard destination.lowercased().hasSuffix(".zip"), let sideFile else {
                return ExportXMLWriter(file: try AtomicFile(destination: destination))
            }
            let writer = try ExportArchiveWriter(destination: destination, sideFile: sideFile)
            try archive?(writer)
            return writer
        }
    }
}

/// Feeds a writer what passed a gate.
final class WriterSink: ObjectSink {
    let writer: any ObjectWriter
    private(set) var hasBegun = false

    init(_ writer: any ObjectWriter) { self.writer = writer }

    func exportDidBegin(_ header: ExportHeader) throws {
        hasBegun = true
        try writer.begin(header)
    }

    @inline(__always)
    func consume(_ object: HealthObject) throws {
        try writer.write(object)
    }
}
