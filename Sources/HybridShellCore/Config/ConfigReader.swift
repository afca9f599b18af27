/// Reads one table of a ``ConfigDocument`` with typed accessors whose errors name the file, the
/// line and the full key, and rejects keys it does not know.
public struct ConfigReader: Sendable {
    public let document: ConfigDocument
    public let path: [String]
    public let members: [String: JSONValue]

    public init(_ document: ConfigDocument) {
        self.init(document: document, path: [], members: document.root)
    }

    init(document: ConfigDocument, path: [String], members: [String: JSONValue]) {
        self.document = document
        self.path = path
        self.members = members
    }

    public func error(_ key: String?, _ message: String) -> ShellError {
        let full = path + (key.map { [$0] } ?? [])
        let line = document.line(of: full).map { ":\($0)" } ?? ""
        let name = full.isEmpty ? "" : " \(full.joined(separator: ".")):"
        return .invalidArgument("\(document.file)\(line):\(name) \(message)")
    }

    /// Fails on the first key (in file order) that is not in `allowed`.
    public func rejectUnknownKeys(_ allowed: Set<String>) throws(ShellError) {
        let unknown = members.keys.filter { !allowed.contains($0) }
            .sorted { (document.line(of: path + [$0]) ?? 0, $0) < (document.line(of: path + [$1]) ?? 0, $1) }
        if let first = unknown.first {
            throw error(first, "unknown key (known here: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    private func typed<T>(_ key: String, _ expected: String, _ convert: (JSONValue) -> T?) throws(ShellError) -> T? {
        guard let value = members[key] else { return nil }
        guard let result = convert(value) else { throw error(key, "expected \(expected), got \(value.typeName)") }
        return result
    }

    public func string(_ key: String) throws(ShellError) -> String? {
        try typed(key, "a string") { $0.stringValue }
    }

    public func bool(_ key: String) throws(ShellError) -> Bool? {
        try typed(key, "true or false") { $0.boolValue }
    }

    public func int(_ key: String, in range: ClosedRange<Int>) throws(ShellError) -> Int? {
        guard let value = try typed(key, "a whole number", { $0.intValue }) else { return nil }
        guard range.contains(value) else { throw error(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(value)") }
        return value
    }

    /// A number of seconds (integer or fractional), as a duration.
    public func seconds(_ key: String, in range: ClosedRange<Double> = 0...86_400) throws(ShellError) -> Duration? {
        guard let value = try typed(key, "a number of seconds", { $0.doubleValue }) else { return nil }
        guard range.contains(value) else { throw error(key, "must be between \(range.lowerBound) and \(range.upperBound) seconds, not \(value)") }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    public func strings(_ key: String) throws(ShellError) -> [String]? {
        try typed(key, "an array of strings") { value in
            guard let items = value.arrayValue else { return nil }
            let strings = items.compactMap(\.stringValue)
            return strings.count == items.count ? strings : nil
        }
    }

    /// One of `choices`.
    public func choice(_ key: String, _ choices: [String]) throws(ShellError) -> String? {
        guard let value = try string(key) else { return nil }
        guard choices.contains(value) else {
            throw error(key, "must be one of \(choices.joined(separator: ", ")), not \(JSONValue.quoted(value))")
        }
        return value
    }

    /// A table of string values (`[headers]`).
    public func stringTable(_ key: String) throws(ShellError) -> [(String, String)]? {
        guard let table = try self.table(key) else { return nil }
        var pairs: [(String, String)] = []
        for name in table.members.keys.sorted() {
            guard let value = table.members[name]?.stringValue else {
                throw table.error(name, "expected a string, got \(table.members[name]!.typeName)")
            }
            pairs.append((name, value))
        }
        return pairs
    }

    public func table(_ key: String) throws(ShellError) -> ConfigReader? {
        guard let value = members[key] else { return nil }
        guard let object = value.objectValue else { throw error(key, "expected a table, got \(value.typeName)") }
        return ConfigReader(document: document, path: path + [key], members: object)
    }

    /// An array of tables (`[[page]]`).
    public func tables(_ key: String) throws(ShellError) -> [ConfigReader] {
        guard let value = members[key] else { return [] }
        guard let items = value.arrayValue else { throw error(key, "expected an array of tables, got \(value.typeName)") }
        var readers: [ConfigReader] = []
        for (index, item) in items.enumerated() {
            guard let object = item.objectValue else {
                throw ConfigReader(document: document, path: path + [key], members: [:]).error(String(index), "expected a table")
            }
            readers.append(ConfigReader(document: document, path: path + [key, String(index)], members: object))
        }
        return readers
    }
}
