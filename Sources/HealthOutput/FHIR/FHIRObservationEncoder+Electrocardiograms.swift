#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthJSON
import HealthModel

/// ECG recordings as HealthKitOnFHIR writes them: the ECG's codes (HealthKit's and IEEE 11073's
/// MDC_ECG_ELEC_POTL), the procedure category, components for the number of measurements, the
/// sampling frequency, the classification and the symptoms status, and the voltages as
/// `SampledData`, one component per ten seconds of recording, in microvolts with the table's
/// precision (3 decimals), `period` the milliseconds between two measurements.
extension FHIRObservationEncoder {
    func write(_ ecg: Electrocardiogram, to out: OutputBuffer) {
        let table = mapping.electrocardiogram
        let plan = begin(ecg.uuid, type: Electrocardiogram.sampleType, to: out)
        if let start = ecg.recordedDate {
            writeEffective(start: start, end: ecg.endDate ?? start, to: out)
        }
        var json = JSONEmitter(continuing: out)
        json.key("component")
        json.beginArray()
        quantityComponent(table.numberOfVoltageMeasurements, value: ExportNumber(ecg.voltages.count), to: &json)
        if let frequency = ecg.samplingFrequency {
            quantityComponent(table.samplingFrequency, value: ExportNumber(frequency), to: &json)
        }
        FHIRJSON.component(table.classification, valueKey: "valueCodeableConcept", to: &json) { json in
            let coding = ecg.classificationRawValue.flatMap { mapping.valueEnums["HKElectrocardiogram.Classification"]?.coding(rawValue: $0) }
            FHIRJSON.codeableConcept(coding.map { [$0] } ?? [], text: ecg.classification ?? (coding == nil ? "not set" : nil), to: &json)
        }
        // The export does not tell "none" from "not recorded": an empty Symptoms row is not set.
        let symptomsStatus = ecg.symptoms == nil ? 0 : 2
        if let coding = mapping.valueEnums["HKElectrocardiogram.SymptomsStatus"]?.coding(rawValue: symptomsStatus) {
            FHIRJSON.component(table.symptomsStatus, valueKey: "valueCodeableConcept", to: &json) { json in
                FHIRJSON.codeableConcept([coding], to: &json)
            }
        }
        writeVoltages(ecg, to: &json)
        json.endArray()
        if let symptoms = ecg.symptoms {
            json.key("note")
            json.beginArray()
            json.element()
            json.beginObject()
            json.key("text")
            json.string(symptoms)
            json.endObject()
            json.endArray()
        }
        end("electrocardiogram", plan: plan, to: out)
    }

    private func quantityComponent(_ part: FHIRTypeMapping, value: ExportNumber, to json: inout JSONEmitter) {
        FHIRJSON.component(part.codings, valueKey: "valueQuantity", to: &json) { json in
            if let unit = part.unit {
                FHIRJSON.quantity(unit: unit, to: &json) { $0.appendRaw(value.text) }
            } else {
                json.number(value)
            }
        }
    }

    /// The voltages in ten-second batches (HealthKitOnFHIR's): measurement `i` is at `i / rate`
    /// seconds and starts a new batch when that crosses a multiple of ten.
    private func writeVoltages(_ ecg: Electrocardiogram, to json: inout JSONEmitter) {
        guard !ecg.voltages.isEmpty else { return }
        let part = mapping.electrocardiogram.voltageMeasurements
        guard let unit = part.unit else { return }
        let rate = ecg.samplingFrequency ?? 512
        let period = 1000 / rate
        // Voltages arrive in the export's unit (µV); the table writes microvolts (`mcV`).
        let exported = ecg.unit.map { $0 == "µV" ? "mcV" : $0 } ?? "mcV"
        let factor: Double
        if let from = try? HealthUnit.cached(exported), let to = try? HealthUnit.cached(unit.healthKitUnit), from.isCompatible(with: to) {
            factor = (try? from.convert(1, to: to)) ?? 1
        } else {
            factor = 1
        }
        let precision = Int32(mapping.electrocardiogram.voltagePrecision)
        var start = 0
        while start < ecg.voltages.count {
            let batch = Int((Double(start) / rate / 10).rounded(.down)) + 1
            var end = start + 1
            while end < ecg.voltages.count, Double(end) / rate < Double(batch) * 10 { end += 1 }
            FHIRJSON.component(part.codings, valueKey: "valueSampledData", to: &json) { json in
                json.beginObject()
                json.key("origin")
                FHIRJSON.quantity(unit: unit, to: &json) { $0.append(0x30) }
                json.key("period")
                FHIRUnitConversion.append(period, to: json.out)
                json.raw("")
                json.key("dimensions")
                json.int(1)
                json.key("data")
                let out = json.out
                out.append(0x22)
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer in
                    for index in start..<end {
                        if index > start { out.append(0x20) }
                        let n = withVaList([precision, ecg.voltages[index] * factor]) { vsnprintf(buffer.baseAddress!, 48, "%.*f", $0) }
                        if n > 0 { out.append(UnsafeRawBufferPointer(start: buffer.baseAddress!, count: min(Int(n), 47))) }
                    }
                }
                out.append(0x22)
                json.raw("")
                json.endObject()
            }
            start = end
        }
    }
}
