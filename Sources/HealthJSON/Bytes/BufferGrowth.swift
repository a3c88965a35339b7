extension UnsafeMutablePointer {
    /// Moves a buffer's first `count` values to a new allocation of at least `needed` values
    /// and frees the old one: the capacity doubles until it fits, so appending one value at a
    /// time costs amortized constant time.
    ///
    /// The growth of the scanner's `ScratchBuffer` and of `OutputBuffer`, both hand-managed so
    /// that the hot path pays no array bounds or uniqueness checks; `Pointee` must be a trivial
    /// type (the old values are copied, never deinitialized).
    package static func grow(_ base: inout UnsafeMutablePointer<Pointee>, count: Int, capacity: inout Int, toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<Pointee>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
