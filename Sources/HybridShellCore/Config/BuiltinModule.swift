/// The modules HybridShell ships (`modules = [...]`, `--modules`). See docs/modules.md.
public enum BuiltinModule: String, Sendable, CaseIterable, Comparable {
    case storage, navigation, system, clipboard, http, files, ui
    case notification, print
    /// The update manager for pages (`hybrid.updates`, `wx.getUpdateManager()`); see docs/offline-packages.md.
    case updates

    public static func < (a: BuiltinModule, b: BuiltinModule) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// `storage,system` → the modules, or an error naming the unknown one.
    public static func parseList(_ names: [String], what: String) throws(ShellError) -> [BuiltinModule] {
        var modules: [BuiltinModule] = []
        for name in names {
            guard let module = BuiltinModule(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw .invalidArgument("\(what): unknown module \(JSONValue.quoted(name)) (known: \(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if !modules.contains(module) { modules.append(module) }
        }
        return modules
    }
}
