import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Assigns derived uuids to the objects of one export, giving exact duplicates distinct uuids
/// (see `ObjectIdentity`), whatever the order of the document.
///
/// An object's uuid is a function of its content and of its rank among the objects *identical*
/// to it in the whole export: the first copy hashes the content alone, the k-th copy the
/// content and k. Copies are identical, so which copy gets which rank does not matter, and the
/// set of uuids is the same however the rest of the document is ordered (an export merged or
/// edited by another tool, healthport's own NDJSON re-sorted). Apple writes each type as one
/// run, and there this gives the uuids earlier versions gave, which counted copies within a run.
///
/// Counting copies needs a memory of every object seen: a table of 64-bit fingerprints of the
/// objects' content (`FingerprintTable`), 8 bytes a slot and at most three quarters full. It
/// lives in memory up to `FingerprintSlots.memoryBudget` and beyond in an unnamed temporary
/// file the kernel pages, so that the memory a read takes stays bounded however large the
/// export.
public struct ObjectIdentityAssigner {
    private var encoder = CanonicalEncoder()
    private var table = FingerprintTable()
    /// With a parallel read: each top-level object's content fingerprint, in order (see
    /// `continues(_:)`). `nil`: not kept.
    public var journal: [IdentityStep]? = nil

    public init() {}

    /// One top-level object as the assigner saw it: its content's fingerprint.
    public struct IdentityStep: Sendable {
        public var fingerprint: UInt64
    }

    /// Whether a chunk whose objects a fresh assigner journaled (`steps`) got the uuids this
    /// assigner would have given them, had it read the chunk itself: unless one of them is a
    /// copy of an object this assigner has seen (the fresh one counted copies within the chunk
    /// only).
    public func continues(_ steps: [IdentityStep]) -> Bool {
        !steps.contains { table.contains($0.fingerprint) }
    }

    /// Advances this assigner over a chunk `continues(_:)` accepted, to the state reading it
    /// would have left.
    public mutating func advance(over steps: [IdentityStep]) {
        for step in steps { _ = table.insert(step.fingerprint) }
    }

    /// Derives the uuid of a top-level quantity sample: the hot path, without wrapping the
    /// sample in a `HealthObject` first.
    public mutating func assign(_ sample: inout QuantitySample) {
        ObjectIdentity.encode(sample, into: &encoder)
        sample.sample.uuid = finishUUID()
    }

    /// Derives the uuid of a top-level category sample.
    public mutating func assign(_ sample: inout CategorySample) {
        ObjectIdentity.encode(sample, into: &encoder)
        sample.sample.uuid = finishUUID()
    }

    /// Hashes the encoded content, counting exact copies in the whole export.
    @inline(__always)
    private mutating func finishUUID() -> ObjectUUID {
        let (uuid, fingerprint) = ObjectIdentity.digest(of: encoder.encoded)
        let ordinal = table.insert(fingerprint)
        if journal != nil { journal!.append(IdentityStep(fingerprint: fingerprint)) }
        return ordinal > 0 ? ObjectIdentity.digest(of: encoder.encoded, ordinal: ordinal).0 : uuid
    }

    /// Derives and stores the uuid of a top-level object (and of its routes, for workouts).
    public mutating func assign(_ object: inout HealthObject) {
        ObjectIdentity.encode(object, into: &encoder)
        let uuid = finishUUID()
        object.uuid = uuid
        if case .workout(var o) = object {
            // A route's uuid is its content and its workout's; identical copies of one route in
            // one workout (a real export printed one route twice) are numbered apart as every
            // other object's copies are: the k-th copy also hashes k, the first keeps its uuid.
            var routeFingerprints: [UInt64] = []
            for i in o.routes.indices {
                ObjectIdentity.encode(o.routes[i], into: &encoder)
                encoder.append(0x7E, uuid)
                let (routeUUID, fingerprint) = ObjectIdentity.digest(of: encoder.encoded)
                let copies = routeFingerprints.count(where: { $0 == fingerprint })
                routeFingerprints.append(fingerprint)
                o.routes[i].sample.uuid = copies > 0 ? ObjectIdentity.digest(of: encoder.encoded, ordinal: copies).0 : routeUUID
            }
            object = .workout(o)
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
    /// A file-backed table's pages are handed back after this many probes: about as many pages
    /// as a 64 MiB table has, so the process holds at most about twice the memory budget.
    private static let probesBetweenReleases = 1 << 14
    private var probesSinceRelease = 0

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
        if slots.isFileBacked {
            probesSinceRelease &+= 1
            if probesSinceRelease >= Self.probesBetweenReleases {
                probesSinceRelease = 0
                slots.releaseResidentPages()
            }
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
        slots.releaseResidentPages()
    }
}

/// The slots of a `FingerprintTable`: zeroed memory, shared between copies of the table until
/// one of them writes (copy-on-write, as an array would be).
///
/// Large tables are asked for in huge pages: a table of megabytes is probed at random, one
/// probe per object, and 4 KiB pages add a TLB miss to most probes (`perf`: `insert` went from
/// 3.0 % to 2.6 % of a 4-year conversion). Raw memory also spares the array's bounds and
/// uniqueness checks on every probe.
///
/// A table larger than `memoryBudget` (an export of some six million distinct objects) is
/// mapped from an unnamed temporary file instead: its pages belong to the kernel's page cache,
/// which writes them out under memory pressure, and `releaseResidentPages()` hands them back
/// from time to time, so the process's memory stays bounded. The file has no name (O_TMPFILE,
/// or unlinked at once where that is missing): a crash leaves nothing behind.
final class FingerprintSlots {
    let pointer: UnsafeMutablePointer<UInt64>
    let count: Int
    /// Whether the slots are a mapped temporary file rather than memory of the process.
    let isFileBacked: Bool
    private static let hugePage = 2 << 20
    /// The largest table kept in the process's memory: 64 MiB (healthport-convert(1)).
    static let memoryBudget = 64 << 20

    init(count: Int) {
        self.count = count
        let bytes = count * MemoryLayout<UInt64>.stride
        if bytes > Self.memoryBudget, let mapped = Self.mapTemporaryFile(bytes: bytes) {
            isFileBacked = true
            pointer = mapped.bindMemory(to: UInt64.self, capacity: count)
            return
        }
        isFileBacked = false
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

    deinit {
        if isFileBacked {
            munmap(UnsafeMutableRawPointer(pointer), count * MemoryLayout<UInt64>.stride)
        } else {
            free(pointer)
        }
    }

    func clear() { memset(pointer, 0, count * MemoryLayout<UInt64>.stride) }

    func copy() -> FingerprintSlots {
        let copy = FingerprintSlots(count: count)
        copy.pointer.update(from: pointer, count: count)
        return copy
    }

    /// Drops a file-backed table's pages from the process (they stay in the file and the page
    /// cache, and come back on the next probe).
    func releaseResidentPages() {
        guard isFileBacked else { return }
        _ = madvise(UnsafeMutableRawPointer(pointer), count * MemoryLayout<UInt64>.stride, MADV_DONTNEED)
    }

    /// A zero-filled shared mapping of a temporary file without a name, in the system's
    /// temporary folder (`TMPDIR` on Unix), as every program's temporary files.
    private static func mapTemporaryFile(bytes: Int) -> UnsafeMutableRawPointer? {
        let directory = FileManager.default.temporaryDirectory.path
        var descriptor: Int32 = -1
        #if os(Linux)
        // O_TMPFILE (Linux ≥ 3.11): __O_TMPFILE | O_DIRECTORY, the same value on every
        // architecture Swift runs on; Glibc's macro is not imported into Swift.
        let tmpfile: Int32 = 0o20_000_000 | O_DIRECTORY
        descriptor = open(directory, tmpfile | O_RDWR | O_CLOEXEC, 0o600)
        #endif
        if descriptor < 0 {
            var template = Array((directory + "/.healthport-fingerprints-XXXXXX").utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { return nil }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(bytes)) == 0 else { return nil }
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        return mapped
    }
}
