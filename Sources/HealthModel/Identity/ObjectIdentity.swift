import Crypto

/// How healthport derives an object's uuid from its content.
///
/// HealthKit objects have uuids; exports print none. healthport derives them so that the same
/// export gives the same uuids on every machine and version, an unchanged sample keeps its uuid
/// from one export to the next (what anchored diffs and the store rely on), and an edited sample
/// gets a new one, exactly HealthKit's delete-plus-add.
///
/// The algorithm (documented in `healthport-formats(5)`; changing it changes every uuid, so it
/// is versioned by `version`):
///
/// 1. Encode the object's canonical content (`CanonicalEncoder`): a version byte, a kind byte,
///    then tagged fields. Samples contribute type, source name and version, the parsed device
///    (never the per-record `0x…` address), creation/start/end instants (not their printed
///    offsets), metadata as a sorted set, and their own value. Workouts contribute their
///    attributes and metadata but not their events, activities, statistics, routes or total
///    attributes: those are re-rendered differently by newer exporters for the same stored
///    workout (quirks Q9, Q13).
/// 2. uuid = the first 16 bytes of SHA-256(canonical content), with the RFC 9562 version
///    nibble set to 8 and the variant bits to `10`.
/// 3. Exact duplicates (same canonical content, which happens: up to 8 identical copies of one
///    manual entry have been seen) get distinct uuids: the k-th copy in document order (k ≥ 1)
///    hashes the canonical content followed by `k`. The first copy is unchanged, so adding a
///    duplicate never changes an existing uuid.
public enum ObjectIdentity {
    /// The canonical-encoding version; part of every hash.
    public static let version: UInt8 = 1

    /// Kind bytes of the canonical encoding.
    public enum KindByte {
        public static let quantitySample: UInt8 = 1
        public static let categorySample: UInt8 = 2
        public static let correlation: UInt8 = 3
        public static let workout: UInt8 = 4
        public static let workoutRoute: UInt8 = 5
        public static let activitySummary: UInt8 = 6
        public static let clinicalRecord: UInt8 = 7
        public static let audiogram: UInt8 = 8
        public static let visionPrescription: UInt8 = 9
        public static let unknown: UInt8 = 10
        public static let electrocardiogram: UInt8 = 11
    }

    /// The SHA-256 digest of canonical bytes, optionally followed by a duplicate ordinal.
    @inline(__always)
    public static func digest(of canonical: UnsafeRawBufferPointer, ordinal: Int = 0) -> (ObjectUUID, UInt64) {
        var hasher = SHA256()
        hasher.update(bufferPointer: canonical)
        if ordinal > 0 {
            withUnsafeBytes(of: UInt64(ordinal).bigEndian) { hasher.update(bufferPointer: $0) }
        }
        let digest = hasher.finalize()
        return digest.withUnsafeBytes { raw -> (ObjectUUID, UInt64) in
            var high = UInt64(0)
            var low = UInt64(0)
            for i in 0..<8 { high = (high << 8) | UInt64(raw[i]) }
            for i in 8..<16 { low = (low << 8) | UInt64(raw[i]) }
            let fingerprint = high ^ low
            // RFC 9562: version 8 (custom) in bits 48-51, variant 0b10 in bits 64-65.
            high = (high & ~UInt64(0xF000)) | 0x8000
            low = (low & ~(UInt64(0xC0) << 56)) | (UInt64(0x80) << 56)
            return (ObjectUUID(high: high, low: low), fingerprint)
        }
    }

    /// The uuid of an object's first copy, from its content alone. Correlations use it to refer
    /// to their members, which the export prints again at top level.
    public static func uuid(of object: HealthObject, encoder: inout CanonicalEncoder) -> ObjectUUID {
        encode(object, into: &encoder)
        return digest(of: encoder.encoded).0
    }

    /// Encodes an object's identity-relevant content (its uuid field is ignored).
    public static func encode(_ object: HealthObject, into e: inout CanonicalEncoder) {
        switch object {
        case .quantitySample(let q): encode(q, into: &e)
        case .categorySample(let c): encode(c, into: &e)
        case .correlation(let c):
            e.reset(kind: KindByte.correlation)
            e.append(c.sample)
            // Members by uuid, order-independent.
            let members = c.objects.map(\.sample.uuid).sorted()
            for member in members { e.append(0x20, member) }
        case .workout(let w):
            e.reset(kind: KindByte.workout)
            e.append(w.sample)
            e.append(0x20, w.workoutActivityType.name)
            e.append(0x21, w.duration)
        case .activitySummary(let a):
            e.reset(kind: KindByte.activitySummary)
            if let day = a.dateComponents { e.append(0x20, int: day.year * 10_000 + day.month * 100 + day.day) }
            e.append(0x21, a.activeEnergyBurned)
            e.append(0x22, a.activeEnergyBurnedGoal)
            e.append(0x23, a.activeEnergyBurnedUnit)
            e.append(0x24, a.appleMoveTime)
            e.append(0x25, a.appleMoveTimeGoal)
            e.append(0x26, a.appleExerciseTime)
            e.append(0x27, a.appleExerciseTimeGoal)
            e.append(0x28, a.appleStandHours)
            e.append(0x29, a.appleStandHoursGoal)
            e.append(0x2A, a.extensions)
        case .clinicalRecord(let c):
            e.reset(kind: KindByte.clinicalRecord)
            e.append(0x20, c.fhirResourceType)
            e.append(0x21, c.identifier)
            e.append(0x22, c.sourceName)
            e.append(0x23, c.sourceURL)
            e.append(0x24, c.fhirVersion)
            e.append(0x25, c.receivedDate)
            e.append(0x26, c.resourceFilePath)
            e.append(0x27, c.extensions)
        case .audiogram(let a):
            e.reset(kind: KindByte.audiogram)
            e.append(a.sample)
            for point in a.sensitivityPoints {
                e.append(0x20, point.frequency)
                e.append(0x21, point.leftEarSensitivity)
                e.append(0x22, point.rightEarSensitivity)
                // As the export prints them (`1`, `0`): the text hashed before they were Booleans.
                e.append(0x23, SensitivityPoint.exportedText(masked: point.leftEarMasked))
                e.append(0x24, SensitivityPoint.exportedText(masked: point.rightEarMasked))
                e.append(0x25, point.leftEarClampingRangeLowerBound)
                e.append(0x26, point.leftEarClampingRangeUpperBound)
                e.append(0x27, point.rightEarClampingRangeLowerBound)
                e.append(0x28, point.rightEarClampingRangeUpperBound)
                e.append(0x29, point.extensions)
            }
        case .visionPrescription(let v):
            e.reset(kind: KindByte.visionPrescription)
            e.append(0x20, v.prescriptionType)
            e.append(0x21, v.dateIssued)
            e.append(0x22, v.expirationDate)
            e.append(0x23, v.brand)
            for (tag, eye) in [(UInt8(0x24), v.rightEye), (UInt8(0x25), v.leftEye)] {
                guard let eye else { continue }
                e.append(tag, "eye")
                for field in LensSpecification.fields { e.append(0x26, eye[attribute: field.attribute]) }
                e.append(0x27, eye.extensions)
            }
            for attachment in v.attachments { e.append(0x28, attachment) }
            e.append(0x29, v.metadata)
            e.append(0x2A, v.extensions)
        case .electrocardiogram(let ecg):
            // The recording, not the file: the header's name and date of birth are left out,
            // so a uuid neither depends on nor encodes them.
            e.reset(kind: KindByte.electrocardiogram)
            e.append(0x20, ecg.recordedDate)
            e.append(0x21, ecg.classification)
            e.append(0x22, ecg.symptoms)
            e.append(0x23, ecg.softwareVersion)
            e.append(0x24, ecg.device)
            e.append(0x25, ecg.samplingFrequency.map { ExportNumber($0) })
            e.append(0x26, ecg.lead)
            e.append(0x27, ecg.unit)
            e.append(0x28, int: ecg.voltages.count)
            for voltage in ecg.voltages { e.append(0x29, ExportNumber(voltage)) }
        case .unknown(let u):
            e.reset(kind: KindByte.unknown)
            e.append(0x20, u.element)
        }
    }

    public static func encode(_ q: QuantitySample, into e: inout CanonicalEncoder) {
        e.reset(kind: KindByte.quantitySample)
        e.append(q.sample)
        e.append(0x20, q.quantity)
        if q.count != 1 { e.append(0x21, int: q.count) }
        for beat in q.instantaneousBeatsPerMinute {
            e.append(0x22, beat.bpm)
            e.append(0x23, beat.time)
        }
    }

    public static func encode(_ c: CategorySample, into e: inout CanonicalEncoder) {
        e.reset(kind: KindByte.categorySample)
        e.append(c.sample)
        if let raw = c.value.rawValue {
            e.append(0x20, int: raw)
        } else {
            e.append(0x21, c.value.name)
        }
    }

    /// A route's identity: its sample attributes only. Its points moved from inline `Location`s
    /// to GPX files in iOS 13 for the same stored route.
    public static func encode(_ r: WorkoutRoute, into e: inout CanonicalEncoder) {
        e.reset(kind: KindByte.workoutRoute)
        e.append(r.sample)
    }
}
