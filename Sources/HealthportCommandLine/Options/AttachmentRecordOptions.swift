import ArgumentParser
import HealthEngine

/// What `clinical` and `ecg` take alike: the export, the filter, and the records' output.
///
/// One group for both commands, so their options and the request they make from them stay the
/// same (an `AttachmentRecordRequest`).
package struct AttachmentRecordOptions: ParsableArguments {
    package init() {}

    @OptionGroup package var input: InputOptions
    @OptionGroup package var filter: FilterOptions

    @OptionGroup package var output: RecordOutputOptions

    /// The request these options make.
    ///
    /// - Throws: `QueryError` for a format other than NDJSON or JSON (naming `command`) or a
    ///   filter that does not parse.
    package func request(command: String) throws -> AttachmentRecordRequest {
        let json = try output.writesJSONDocument(command: command)
        var request = AttachmentRecordRequest(export: input.export, query: try filter.makeQuery(), json: json, output: output.output)
        request.reading = input.parsing.reading
        return request
    }
}
