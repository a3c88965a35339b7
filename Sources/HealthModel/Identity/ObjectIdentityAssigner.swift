#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Assigns derived uuids to the objects of one export, in document order, giving exact
/// duplicates distinct uuids (see `ObjectIdentity`).
///
/// Counting duplicates needs a memory of what was seen. The export writes each type's samples
/// as one consecutive run, so the memory is scoped to the current run: a table of 64-bit
/// fingerprints, about 12 bytes per object of the largest type run, emptied when the next run
/// starts. A type that shows up again after its run ended (never in Apple's exports; possible in
/// edited files) starts a new *generation*, hashed into the uuids of that run, so uuids stay
/// unique in every file while Apple's exports get generation 0 throughout.
public struct ObjectIdentityAssigner {
    private var encoder = CanonicalEncoder()
    private var table = FingerprintTable()
    private var currentRun: String? = nil
    private var generations: [String: Int] = [:]
    private var currentGeneration = 0
    /// With a parallel read: each top-level object's run and fingerprint, in order (see
    /// `continues(_:)`). `nil`: not kept.
    public var journal: [IdentityStep]? = nil

    public init() {}

    /// One top-level object as the assigner saw it: its run, and its content's fingerprint
    /// (`nil` for an object skipped unread).
    public struct IdentityStep: Sendable {
        public var runKey: String
        public var fingerprint: UInt64?
    }

    /// Whether a chunk whose objects a fresh assigner journaled (`steps`) got the uuids this
    /// assigner would have given them, had it read the chunk itself. That holds unless the
    /// chunk continues the current run with a copy of one of its objects, continues a run of a
    /// later generation, or brings back a run that ended before the chunk: in all three, the
    /// fresh assigner lacked the memory this one has.
    public func continues(_ steps: [IdentityStep]) -> Bool {
        var run = currentRun
        var inFirstRun = true
        for step in steps {
            if step.runKey != run {
                if step.runKey == currentRun || generations[step.runKey] != nil { return false }
                run = step.runKey
                inFirstRun = false
            } else if inFirstRun {
                if currentGeneration != 0 { return false }
                if let fingerprint = step.fingerprint, table.contains(fingerprint) { return false }
            }
        }
        return true
    }

    /// Advances this assigner over a chunk `continues(_:)` accepted, to the state reading it
    /// would have left: the runs it went through, and the fingerprints of its last run (those
    /// of earlier runs are forgotten when their run ends anyway).
    public mutating func advance(over steps: [IdentityStep]) {
        var lastRunStart = steps.count
        if let last = steps.last?.runKey {
            while lastRunStart > 0 && steps[lastRunStart - 1].runKey == last { lastRunStart -= 1 }
        }
        for (index, step) in steps.enumerated() {
            enterRun(step.runKey)
            if index >= lastRunStart, let fingerprint = step.fingerprint { _ = table.insert(fingerprint) }
        }
    }

    /// Derives the uuid of a top-level quantity sample: the hot path, without wrapping the
    /// sample in a `HealthObject` first.
    public mutating func assign(_ sample: inout QuantitySample) {
        enterRun(sample.sample.sampleType.identifier)
        ObjectIdentity.encode(sample, into: &encoder)
        sample.sample.uuid = finishUUID()
    }

    /// Derives the uuid of a top-level category sample.
    public mutating func assign(_ sample: inout CategorySample) {
        enterRun(sample.sample.sampleType.identifier)
        ObjectIdentity.encode(sample, into: &encoder)
        sample.sample.uuid = finishUUID()
    }

    /// Notes a top-level object that is skipped unread (a type filter), so that the runs, and so
    /// the uuids of the objects that are read, are the same as in a full read.
    public mutating func skip(runKey: String) {
        enterRun(runKey)
        journal?.append(IdentityStep(runKey: runKey, fingerprint: nil))
    }

    @inline(__always)
    private mutating func enterRun(_ runKey: String) {
        if runKey != currentRun {
            if let previous = currentRun { generations[previous] = currentGeneration }
            currentRun = runKey
            if let seen = generations[runKey] {
                currentGeneration = seen + 1
            } else {
                currentGeneration = 0
            }
            table.removeAll()
        }
    }

    /// Hashes the encoded content, counting exact duplicates within the run.
    @inline(__always)
    private mutating func finishUUID() -> ObjectUUID {
        if currentGeneration > 0 { encoder.append(0x7F, int: currentGeneration) }
        let (uuid, fingerprint) = ObjectIdentity.digest(of: encoder.encoded)
        let ordinal = table.insert(fingerprint)
        if journal != nil { journal!.append(IdentityStep(runKey: currentRun ?? "", fingerprint: fingerprint)) }
        return ordinal > 0 ? ObjectIdentity.digest(of: encoder.encoded, ordinal: ordinal).0 : uuid
    }

    /// Derives and stores the uuid of a top-level object (and of its routes, for workouts).
    public mutating func assign(_ object: inout HealthObject) {
        enterRun(object.objectType.identifier)
        ObjectIdentity.encode(object, into: &encoder)
        let uuid = finishUUID()
        switch object {
        case .quantitySample(var o):
            o.sample.uuid = uuid
            object = .quantitySample(o)
        case .categorySample(var o):
            o.sample.uuid = uuid
            object = .categorySample(o)
        case .correlation(var o):
            o.sample.uuid = uuid
            object = .correlation(o)
        case .workout(var o):
            o.sample.uuid = uuid
            for i in o.routes.indices {
                ObjectIdentity.encode(o.routes[i], into: &encoder)
                encoder.append(0x7E, uuid)
                o.routes[i].sample.uuid = ObjectIdentity.digest(of: encoder.encoded).0
            }
            object = .workout(o)
        case .activitySummary(var o):
            o.uuid = uuid
            object = .activitySummary(o)
        case .clinicalRecord(var o):
            o.uuid = uuid
            object = .clinicalRecord(o)
        case .audiogram(var o):
            o.sample.uuid = uuid
            object = .audiogram(o)
        case .visionPrescription(var o):
            o.uuid = uuid
            object = .visionPrescription(o)
        case .electrocardiogram(var o):
            o.uuid = uuid
            object = .electrocardiogram(o)
        case .unknown(var o):
            o.uuid = uuid
            object = .unknown(o)
        }
    }

    /// The uuid a correlation member refers to: the first copy of the same top-level sample.
    public mutating func memberUUID(of member: HealthObject) -> ObjectUUID {
        ObjectIdentity.uuid(of: member, encoder: &encoder)
    }
}

/// An open-addressing set of 64-bit fingerprints that counts repeats.
struct FingerprintTable {
    private var slots = FingerprintSlots(count: 1024)
    private var count = 0
    /// Copies seen so far, for fingerprints seen more than once.
    private var repeats: [UInt64: Int] = [:]

    mutating func removeAll() {
        guard count > 0 || !repeats.isEmpty else { return }
        if slots.count > 1 << 16 || !isKnownUniquelyReferenced(&slots) {
            slots = FingerprintSlots(count: 1024)
        } else {
            slots.clear()
        }
        count = 0
        repeats.removeAll()
    }

    func contains(_ raw: UInt64) -> Bool {
        let fingerprint = raw == 0 ? 1 : raw
        let mask = slots.count - 1
        let p = slots.pointer
        var i = Int(truncatingIfNeeded: fingerprint) & mask
        while true {
            let slot = p[i]
            if slot == 0 { return false }
            if slot == fingerprint { return true }
            i = (i + 1) & mask
        }
    }

    /// Inserts a fingerprint; returns how many times it had been inserted before.
    mutating func insert(_ raw: UInt64) -> Int {
        let fingerprint = raw == 0 ? 1 : raw
        if (count + 1) * 4 > slots.count * 3 {
            grow()
        } else if !isKnownUniquelyReferenced(&slots) {
            slots = slots.copy()
        }
        let mask = slots.count - 1
        let p = slots.pointer
        var i = Int(truncatingIfNeeded: fingerprint) & mask
        while true {
            let slot = p[i]
            if slot == 0 {
                p[i] = fingerprint
                count += 1
                return 0
            }
            if slot == fingerprint {
                let seen = repeats[fingerprint, default: 1]
                repeats[fingerprint] = seen + 1
                return seen
            }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = FingerprintSlots(count: old.count * 2)
        let mask = slots.count - 1
        let p = slots.pointer
        for index in 0..<old.count {
            let fingerprint = old.pointer[index]
            guard fingerprint != 0 else { continue }
            var i = Int(truncatingIfNeeded: fingerprint) & mask
            while p[i] != 0 { i = (i + 1) & mask }
            p[i] = fingerprint
        }
    }
}

/// The slots of a `FingerprintTable`: zeroed memory, shared between copies of the table until
/// one of them writes (copy-on-write, as an array would be).
///
/// Large tables are asked for in huge pages: the longest type run of a large export makes a
/// table of megabytes probed at random, one probe per object, and 4 KiB pages add a TLB miss
/// to most probes (`perf`: `insert` went from 3.0 % to 2.6 % of a 4-year conversion). Raw
/// memory also spares the array's bounds and uniqueness checks on every probe.
final class FingerprintSlots {
    let pointer: UnsafeMutablePointer<UInt64>
    let count: Int
    private static let hugePage = 2 << 20

    init(count: Int) {
        self.count = count
        let bytes = count * MemoryLayout<UInt64>.stride
        let huge = bytes >= Self.hugePage
        var raw: UnsafeMutableRawPointer? = nil
        guard posix_memalign(&raw, huge ? Self.hugePage : 64, bytes) == 0, let raw else {
            fatalError("out of memory for a fingerprint table of \(bytes) bytes")
        }
        #if os(Linux)
        if huge { _ = madvise(raw, bytes, MADV_HUGEPAGE) }
        #endif
        memset(raw, 0, bytes)
        pointer = raw.bindMemory(to: UInt64.self, capacity: count)
    }

    deinit { free(pointer) }

    func clear() { memset(pointer, 0, count * MemoryLayout<UInt64>.stride) }

    func copy() -> FingerprintSlots {
        let copy = FingerprintSlots(count: count)
        copy.pointer.update(from: pointer, count: count)
        return copy
    }
}
