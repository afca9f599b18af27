/// A grant of native modules or single handlers to documents of some origins, with a deny list
/// that wins over every grant (Tauri's capabilities, Electron's permission handlers).
///
///     Capability(origins: [try OriginPattern(parsing: "https://*.example.org")],
///                modules: ["storage", "system"], handlers: ["http.request"], deny: ["clipboard"])
public struct Capability: Sendable, Equatable {
    public var origins: [OriginPattern]
    /// Whole modules: `storage` grants every `storage.*` handler.
    public var modules: Set<String>
    /// Single handlers: `http.request`.
    public var handlers: Set<String>
    /// Modules or handlers refused to these origins, whatever else grants them.
    public var deny: Set<String>

    public init(origins: [OriginPattern], modules: Set<String> = [], handlers: Set<String> = [], deny: Set<String> = []) {
        self.origins = origins
        self.modules = modules
        self.handlers = handlers
        self.deny = deny
    }

    package func applies(to origin: String) -> Bool {
        guard origin != "null", !origin.isEmpty else { return false }
        return origins.contains { $0.matches(origin) }
    }

    /// `--grant 'https://*.example.org=storage,system,http.request'`: names with a dot are
    /// handlers, the others modules.
    public init(grant text: String) throws(ShellError) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
            throw .invalidArgument("--grant takes ORIGIN=MODULE[,MODULE…], like 'https://*.example.org=storage,system', not \(JSONValue.quoted(text))")
        }
        let names = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw .invalidArgument("--grant \(JSONValue.quoted(text)) names no module after =")
        }
        let origin = try OriginPattern(parsing: String(text[..<equals]))
        self.init(origins: [origin], modules: Set(names.filter { !$0.contains(".") }), handlers: Set(names.filter { $0.contains(".") }))
    }
}
