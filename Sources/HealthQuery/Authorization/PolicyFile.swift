import Foundation
import HealthModel

/// Reading and writing `healthport-policy(5)` files.
extension AuthorizationPolicy {
    /// Why a policy's type name is refused: a policy names types exactly (a grant read loosely
    /// could share a type nobody meant to), so a name the command line would take (`steps`) is
    /// answered with the exact name it would find, and a word several types hold with them all.
    static func notExactMessage(_ name: String) -> String {
        let shown = TypeNameResolver.shown(name)
        switch TypeCatalogue.match(typeName: name) {
        case .type(let identifier):
            return "'\(shown)' is not a type's exact name; a policy names each type exactly: \(TypeCatalogue.shortName(of: identifier))"
        case .ambiguous:
            return TypeNameResolver.unknownTypeMessage(name) + "; a policy names each type exactly"
        case .none:
            return TypeNameResolver.unknownTypeMessage(name)
        }
    }

    struct FileFormat: Codable {
        var version: Int
        var consumer: Consumer
        var ownSources: [String]?
        var share: [String: ShareStatus]?
        var read: [String: ReadDecision]?
        var readSince: [String: String]?
        var perObject: [String: PerObjectGrants]?
    }

    /// Loads and validates a policy file.
    ///
    /// - Throws: `PolicyFileError` naming the file and the entry at fault.
    public static func load(from path: String) throws -> AuthorizationPolicy {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PolicyFileError(path: path, message: "cannot read the policy file")
        }
        let file: FileFormat
        do {
            file = try JSONDecoder().decode(FileFormat.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            if context.codingPath.isEmpty {
                throw PolicyFileError(path: path, message: "not valid JSON: \(context.debugDescription)")
            }
            throw PolicyFileError(
                path: path,
                message: "invalid value at \(context.codingPath.map(\.stringValue).joined(separator: ".")) (see healthport-policy(5))")
        } catch let DecodingError.keyNotFound(key, _) {
            throw PolicyFileError(path: path, message: "missing \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw PolicyFileError(path: path, message: "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch DecodingError.valueNotFound(_, let context) {
            throw PolicyFileError(path: path, message: "missing value at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw PolicyFileError(path: path, message: "not a policy file (\(error))")
        }
        if let duplicate = DuplicateJSONKeys.first(in: [UInt8](data)) {
            throw PolicyFileError(
                path: path + ":\(duplicate.line):\(duplicate.column)",
                message: "the key \"\(duplicate.key.prefix(80))\" appears twice in one object (JSON readers disagree on which counts)")
        }
        guard file.version == formatVersion else {
            throw PolicyFileError(path: path, message: "unsupported policy version \(file.version) (this healthport reads version \(formatVersion))")
        }
        var policy = AuthorizationPolicy(consumer: file.consumer, ownSources: file.ownSources ?? [])
        func resolve(_ name: String, _ section: String) throws -> String {
            // Exact names only: a word that finds a type loosely (`Weight`) could grant a type
            // nobody meant to in a file that grants access.
            if let identifier = TypeCatalogue.resolve(exactTypeName: name) { return identifier }
            throw PolicyFileError(path: path, message: "\(section): " + Self.notExactMessage(name))
        }
        for (name, status) in file.share ?? [:] {
            let type = try resolve(name, "share")
            if status != .notDetermined && isReadOnly(type) {
                throw PolicyFileError(path: path, message: "share: \(type) is read-only and cannot be shared")
            }
            if isCorrelation(type) { throw PolicyFileError(path: path, message: "share: \(type) cannot be authorized; use its member types") }
            policy.share[type] = status
        }
        for (name, decision) in file.read ?? [:] {
            let type = try resolve(name, "read")
            if perObjectTypes.contains(type) {
                throw PolicyFileError(path: path, message: "read: \(type) is authorized object by object: put it under perObject")
            }
            if isCorrelation(type) { throw PolicyFileError(path: path, message: "read: \(type) cannot be authorized; use its member types") }
            policy.read[type] = decision
        }
        for (name, date) in file.readSince ?? [:] {
            let type = try resolve(name, "readSince")
            guard PredicateValue.parseDate(date, timeZone: TimeZone(identifier: "UTC")!) != nil else {
                throw PolicyFileError(path: path, message: "readSince: invalid date \"\(date)\" for \(type)")
            }
            policy.readSince[type] = date
        }
        for (name, grants) in file.perObject ?? [:] {
            let type = try resolve(name, "perObject")
            guard perObjectTypes.contains(type) else {
                throw PolicyFileError(path: path, message: "perObject: \(type) is not authorized object by object")
            }
            for uuid in grants.granted + grants.revokedOwn where ObjectUUID(uuidString: uuid) == nil {
                throw PolicyFileError(path: path, message: "perObject: \"\(uuid)\" is not a uuid")
            }
            policy.perObject[type] = grants
        }
        return policy
    }

    /// The policy file's bytes (pretty JSON, keys sorted, a final newline): what
    /// `save(to:)` (HealthEngine) writes atomically.
    public func fileBytes() throws -> [UInt8] {
        let file = FileFormat(
            version: Self.formatVersion, consumer: consumer, ownSources: ownSources, share: share, read: read,
            readSince: readSince.isEmpty ? nil : readSince, perObject: perObject.isEmpty ? nil : perObject)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(file) + Data("\n".utf8))
    }
}
