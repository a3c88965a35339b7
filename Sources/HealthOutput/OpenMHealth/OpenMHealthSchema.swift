/// The Open mHealth schema a data point's body conforms to: its `schema_id` (namespace, name,
/// version), as openmhealth/schemas names its files (`omh/heart-rate-2.0.json`).
///
/// Each is the newest version of its name that validates offline against the schemas alone;
/// `body-weight` is 2.0 because the 3.0 file declares itself 2.0 (`$id`), and `step-count` 3.0
/// rather than IEEE 1752.1's `physical-activity`, whose schema openmhealth/schemas does not
/// ship. `Scripts/check-omh.sh` validates every body against the file these name.
public struct OpenMHealthSchema: Sendable, Hashable {
    /// Always `omh`: every body healthport writes is an Open mHealth schema's.
    public let namespace: String
    public let name: String
    public let version: String

    init(_ name: String, _ version: String) {
        namespace = "omh"
        self.name = name
        self.version = version
    }

    public static let stepCount = OpenMHealthSchema("step-count", "3.0")
    public static let physicalActivity = OpenMHealthSchema("physical-activity", "1.2")
    public static let heartRate = OpenMHealthSchema("heart-rate", "2.0")
    public static let sleepEpisode = OpenMHealthSchema("sleep-episode", "1.1")
    public static let bodyWeight = OpenMHealthSchema("body-weight", "2.0")
    public static let bloodPressure = OpenMHealthSchema("blood-pressure", "4.0")
    public static let bloodGlucose = OpenMHealthSchema("blood-glucose", "4.0")
    public static let oxygenSaturation = OpenMHealthSchema("oxygen-saturation", "2.0")
    public static let respiratoryRate = OpenMHealthSchema("respiratory-rate", "2.0")
    public static let bodyTemperature = OpenMHealthSchema("body-temperature", "4.0")
    public static let caloriesBurned = OpenMHealthSchema("calories-burned", "2.0")

    /// `omh:heart-rate:2.0`: how the tally and the warnings name it.
    public var text: String { "\(namespace):\(name):\(version)" }
}
