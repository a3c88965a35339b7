/// Byte classes of the scanner's names, one byte of the table per byte value: a name
/// character (`1`), a name start (`2`), both (`3`), neither (`0`).
///
/// The scanner takes ASCII names only — letters, `_`, then letters, digits, `_`, `-`, `.` —
/// which is every name Apple writes; a colon (a namespace prefix) or a non-ASCII name is
/// handed to libxml2 with the rest of the document (`HandoverPoint.Reason.name`). A static
/// string's bytes are read through its pointer, with no array bounds check or global
/// accessor on the per-name loop.
enum NameBytes {
    private static let table: StaticString = """
        0000000000000000000000000000000000000000000001101111111111000000\
        0333333333333333333333333330000303333333333333333333333333300000\
        0000000000000000000000000000000000000000000000000000000000000000\
        0000000000000000000000000000000000000000000000000000000000000000
        """

    @inline(__always)
    static func isNameStart(_ c: UInt8) -> Bool {
        (table.utf8Start[Int(c)] & 2) != 0
    }

    @inline(__always)
    static func isNameCharacter(_ c: UInt8) -> Bool {
        (table.utf8Start[Int(c)] & 1) != 0
    }
}
