/// Paths inside an export (`FileReference@path`, `ClinicalRecord@resourceFilePath`), resolved
/// inside the export only.
///
/// The export writes them with a leading slash, relative to the export folder
/// (`/workout-routes/route_….gpx`). A path with `..`, an empty or `.` segment, a backslash or a
/// NUL is refused (`unsafeMemberPath`): a hostile export must not reach files outside it.
public enum AttachmentPath {
    /// The path relative to the export folder; throws for unsafe paths.
    public static func resolve(_ reference: String) throws -> String {
        var path = Substring(reference)
        while path.hasPrefix("/") { path = path.dropFirst() }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty,
            segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
            !path.contains("\\"), !path.contains("\0")
        else {
            throw ExportError(.unsafeMemberPath, "refused the path \"\(reference.prefix(120))\": it leaves the export")
        }
        return String(path)
    }
}
