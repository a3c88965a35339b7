/// The formats object runs write (healthport-formats(5)).
public enum ObjectFormat: String, Sendable, CaseIterable {
    case ndjson, json, csv
    /// Apple Health's own export.xml: a file, standard output, or (conversion to `X.zip`) an
    /// export archive.
    case export
}
