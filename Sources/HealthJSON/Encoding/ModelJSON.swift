import HealthModel

/// Parts of healthport's JSON for callers that keep them apart (the store keeps each distinct
/// device once).
public enum ModelJSON {
    /// A device object, as the object writers embed it.
    public static func encode(_ device: Device) -> [UInt8] {
        let buffer = OutputBuffer(descriptor: -1, capacity: 512)
        var json = JSONEmitter(buffer)
        JSONObjectEncoder.write(device, to: &json)
        return buffer.takeBytes()
    }
}
