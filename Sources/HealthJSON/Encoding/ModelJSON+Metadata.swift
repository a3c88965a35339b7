import HealthModel

extension ModelJSON {
    /// `{"metadata":{…}}`: an object's metadata alone, as the object writers embed it. The store
    /// keeps it as the body of a sample whose other fields all fit its columns, so that SQL
    /// reads it where it reads every other body's (`json_each(body, '$.metadata')`).
    public static func encode(metadata: Metadata) -> [UInt8] {
        let buffer = OutputBuffer(descriptor: -1, capacity: 256)
        var json = JSONEmitter(buffer)
        json.beginObject()
        JSONObjectEncoder.writeMetadata(metadata, to: &json)
        json.endObject()
        return buffer.takeBytes()
    }
}

extension ObjectDecoder {
    /// Reads `ModelJSON.encode(metadata:)` back: the metadata an object decoded from its whole
    /// JSON would hold.
    public static func decodeMetadata(_ bytes: [UInt8]) throws -> Metadata {
        try metadata(Members(try parse(bytes), path: ""))
    }
}
