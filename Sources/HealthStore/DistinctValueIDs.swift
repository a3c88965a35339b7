/// The ids of one kind of value a store keeps once in a table of its own (types, source
/// revisions, devices): each distinct value gets the next id the first time it is seen.
///
/// Remembers the last value numbered: consecutive rows share it (the reader interns them), so
/// most lookups compare one value and skip the dictionary.
struct DistinctValueIDs<Value: Hashable> {
    private(set) var ids: [Value: Int64] = [:]
    private var nextID: Int64 = 1
    /// Held, so an interned value's storage (a device's) stays the one compared.
    private var last: (value: Value, id: Int64)? = nil

    /// Records an id the store already holds.
    mutating func load(_ value: Value, id: Int64) {
        ids[value] = id
        nextID = max(nextID, id + 1)
    }

    /// The value's id, numbering it when it is new: `isNew` tells the caller to write its row.
    mutating func id(of value: Value) -> (id: Int64, isNew: Bool) {
        if let last, last.value == value { return (last.id, false) }
        if let id = ids[value] {
            last = (value, id)
            return (id, false)
        }
        let id = nextID
        ids[value] = id
        last = (value, id)
        nextID += 1
        return (id, true)
    }
}
