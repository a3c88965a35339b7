import HealthExport

extension ExportWarning {
    /// A warning about a side file (a route, an ECG, a FHIR resource) rather than the document.
    static func sideFile(_ message: String, at location: SourceLocation? = nil) -> ExportWarning {
        ExportWarning(key: "side-file:" + message, message: message, location: location)
    }
}
