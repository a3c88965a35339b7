/// An Apple Watch ECG recording (HealthKit: `HKElectrocardiogram` with its voltage
/// measurements), read from `electrocardiograms/ecg_….csv`.
///
/// The file's header also holds the person's name and date of birth; healthport does not carry
/// them into the model (they are personal data the ECG does not need).
public struct Electrocardiogram: Hashable, Sendable {
    public var uuid: ObjectUUID
    /// The file, relative to the export folder.
    public var file: String
    public var recordedDate: ExportTimestamp?
    /// The localized classification text as exported (`Sinus Rhythm`), and HealthKit's raw value
    /// when the text is recognized (1 sinus rhythm, 2 atrial fibrillation, …).
    public var classification: String?
    public var classificationRawValue: Int?
    public var symptoms: String?
    public var softwareVersion: String?
    public var device: String?
    /// Hertz (not exactly 512: `512.844 hertz` occurs).
    public var samplingFrequency: Double?
    public var lead: String?
    /// The voltages' unit as exported (`µV`).
    public var unit: String?
    public var voltages: [Double]

    public init(file: String) {
        self.uuid = ObjectUUID(high: 0, low: 0)
        self.file = file
        self.voltages = []
    }

    public static let sampleType = ObjectType(identifier: "HKDataTypeIdentifierElectrocardiogram", kind: .other)

    /// The end of the recording: its start plus the samples at the sampling frequency.
    public var endDate: ExportTimestamp? {
        guard let start = recordedDate else { return nil }
        let seconds = Double(voltages.count) / (samplingFrequency ?? 512)
        return ExportTimestamp(secondsSince1970: start.secondsSince1970 + Int64(seconds.rounded()), utcOffsetSeconds: start.utcOffsetSeconds)
    }
}
