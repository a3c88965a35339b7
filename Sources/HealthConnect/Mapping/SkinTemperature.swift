import HealthModel

/// Health Connect's skin temperature (`skin_temperature_record_table` with
/// `skin_temperature_delta_table`, database version 11): over an interval (a night, say), an
/// optional baseline temperature and a series of deltas, each how far the skin was from that
/// baseline at one instant, in degrees Celsius. The record says nothing of the skin's
/// temperature itself at any instant; the deltas are differences.
///
/// So the two are types of their own, each in a unit that says what it is:
/// - the baseline, a temperature, is one `HealthConnectSkinTemperatureBaseline` sample in `degC`
///   over the record's interval, with the record's uuid; a baseline the app did not give (AOSP's
///   "not set", `NotSet`, or NULL) is no sample;
/// - each delta is a `HealthConnectSkinTemperatureDelta` sample at its instant in `delta_degC`, a
///   temperature *difference* (`HealthUnit`): +0.5 `delta_degC` is +0.9 `delta_degF`, never the
///   32.9 °F that converting a temperature of 0.5 °C gives. Converting it to `degF` or `degC` is
///   refused. Its uuid is made as a series reading's, and it carries the baseline, when there is
///   one, in `HealthConnectSkinTemperatureBaseline` metadata, so a delta read alone still says
///   what it is relative to.
///
/// HealthKit's `AppleSleepingWristTemperature` is a temperature, not a difference, and Apple's
/// own: no delta is written as one. Where on the body (the platform's
/// `SkinTemperatureRecord.MEASUREMENT_LOCATION_…`: 0 unknown, 1 finger, 2 toe, 3 wrist) is kept
/// as the record's code in `HealthConnectMeasurementLocation`, on the baseline and every delta.
enum SkinTemperature {
    static let baselineType = HealthConnectTypes.skinTemperatureBaseline
    static let deltaType = HealthConnectTypes.skinTemperatureDelta

    /// The unit of a delta: a difference of degrees Celsius.
    static let deltaUnit = "delta_degC"

    /// The table's own columns after every record's: the location code, then the baseline.
    static let columns = ["measurement_location", "baseline"]

    /// The child table of the deltas (`parent_key`, the delta in degrees Celsius, its instant).
    static let deltas = RecordTable.ChildTable(
        name: "skin_temperature_delta_table", columns: ["parent_key", "delta", "epoch_millis"], order: "epoch_millis", required: true)

    /// The record's location under `HealthConnectMeasurementLocation`, as text; none for NULL.
    static func metadata(location code: Int64?) -> [MetadataEntry] {
        code.map { [MetadataEntry(key: HealthConnectMetadataKeys.measurementLocation, value: .string(String($0)))] } ?? []
    }

    /// A baseline as the quantity it is, in degrees Celsius.
    static func baseline(_ celsius: Double) -> Quantity {
        Quantity(value: ExportNumber(celsius), unit: "degC")
    }
}
