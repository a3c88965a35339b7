/// Which parser reads the body of `export.xml`.
///
/// Both give the same objects, uuids, warnings and errors (with the same positions): the
/// scanner is healthport's own, several times faster than libxml2 on the regular markup Apple
/// writes, and hands everything else to libxml2 (`ExportBodyScanner`); libxml2 is the
/// reference, and the oracle the scanner is tested against (`ScannerDifferentialTests`,
/// `Fuzz/scanner`). The prolog, the DTD and the root element are libxml2's in both.
public enum ExportXMLParser: String, Sendable, CaseIterable {
    /// healthport's scanner for the body, libxml2 for the rest (the default).
    case scanner
    /// libxml2 alone, behind the pre-filter: the reference path.
    case libxml2
}
