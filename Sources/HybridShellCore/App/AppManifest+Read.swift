import Foundation

extension AppManifest {
    /// Every key an `app.toml` may have at the top level.
    public static let keys: Set<String> = Set(["id", "name", "version", "summary", "description", "license", "homepage", "web", "entry",
                                           "command", "window", "schemes", "icon", "update_url", "trusted_keys", "kiosk", "maintainer", "preset"])
        .union(ModuleConfiguration.keys)

    /// Reads an `app.toml`; the first problem is one error naming the file, the line and the key.
    public static func load(path: String) throws(ShellError) -> AppManifest {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return try read(ConfigReader(ConfigDocument.load(path: absolute)))
    }

    /// Reads the top level of `reader`; paths are resolved against the folder of its file and
    /// checked on disk (the `web` folder, the entry page, the icon, the trusted keys).
    public static func read(_ reader: ConfigReader) throws(ShellError) -> AppManifest {
        try reader.rejectUnknownKeys(keys)
        let id = try required(reader, "id")
        if let problem = idProblem(id) { throw reader.error("id", "\(JSONValue.quoted(id)) \(problem)") }
        let name = try required(reader, "name")
        let version = try required(reader, "version")
        if let problem = versionProblem(version) { throw reader.error("version", "\(JSONValue.quoted(version)) \(problem)") }
        let base = DirectoryMount.directory(containing: reader.document.file)

        let web = resolve(try reader.string("web") ?? "web", base)
        let preset = try reader.string("preset").map { resolve($0, base) }
        if let preset, !FileManager.default.fileExists(atPath: preset) { throw reader.error("preset", "no such file: \(preset)") }
        var isDirectory: ObjCBool = false
        guard preset != nil || FileManager.default.fileExists(atPath: web, isDirectory: &isDirectory) && isDirectory.boolValue else {
            throw reader.error(reader.members["web"] == nil ? nil : "web", "the web folder \(web) does not exist (web = \"FOLDER\" names the H5 app's files)")
        }
        let entry = try reader.string("entry") ?? "index.html"
        if let problem = PackagePath.problem(entry) { throw reader.error("entry", "\(JSONValue.quoted(entry)): \(problem)") }
        guard preset != nil || FileManager.default.fileExists(atPath: web + "/" + entry) else {
            throw reader.error("entry", "no such file: \(web)/\(entry)")
        }

        let command = try reader.string("command") ?? defaultCommand(for: id)
        if let problem = commandProblem(command) { throw reader.error("command", "\(JSONValue.quoted(command)) \(problem)") }
        var manifest = AppManifest(file: reader.document.file, id: id, name: name, version: version, summary: try reader.string("summary"),
                                   description: try reader.string("description"), license: try reader.string("license"),
                                   homepage: try httpURL(reader, "homepage"), web: web, entry: entry, maintainer: try reader.string("maintainer"),
                                   preset: preset, command: command,
                                   window: try window(reader, name: name), modules: try ModuleConfiguration.read(reader), schemes: [],
                                   icon: nil, updateURL: try httpURL(reader, "update_url"), trustedKeys: [], kiosk: try reader.table("kiosk"))
        if let maintainer = manifest.maintainer, maintainerProblem(maintainer) {
            throw reader.error("maintainer", "\(JSONValue.quoted(maintainer)) is not Name <mail@address>")
        }
        if let summary = manifest.summary, summary.isEmpty || summary.contains("\n") {
            throw reader.error("summary", "must be one non-empty line")
        }
        for scheme in try reader.strings("schemes") ?? [] {
            if let problem = schemeProblem(scheme) { throw reader.error("schemes", "\(JSONValue.quoted(scheme)) \(problem)") }
            guard !manifest.schemes.contains(scheme.lowercased()) else { throw reader.error("schemes", "\(scheme) is listed twice") }
            manifest.schemes.append(scheme.lowercased())
        }
        if let icon = try reader.string("icon") {
            let path = resolve(icon, base)
            guard ["png", "svg"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) else {
                throw reader.error("icon", "\(JSONValue.quoted(icon)) must be a .png or .svg file")
            }
            guard FileManager.default.fileExists(atPath: path) else { throw reader.error("icon", "no such file: \(path)") }
            manifest.icon = path
        }
        let keys = try reader.strings("trusted_keys") ?? []
        guard keys.count <= 2 else { throw reader.error("trusted_keys", "at most two keys (the current one and the next)") }
        for key in keys {
            let path = resolve(key, base)
            do {
                _ = try PackagePublicKey(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw reader.error("trusted_keys", error.description)
            }
            manifest.trustedKeys.append(path)
        }
        return manifest
    }

    private static func required(_ reader: ConfigReader, _ key: String) throws(ShellError) -> String {
        guard let value = try reader.string(key) else { throw reader.error(nil, "\(key) = \"…\" is required") }
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw reader.error(key, "must not be empty") }
        return value
    }

    private static func window(_ reader: ConfigReader, name: String) throws(ShellError) -> Window {
        var window = Window(title: name)
        guard let table = try reader.table("window") else { return window }
        try table.rejectUnknownKeys(["title", "width", "height", "resizable"])
        window.title = try table.string("title") ?? name
        window.width = try table.int("width", in: 100...16_384) ?? window.width
        window.height = try table.int("height", in: 100...16_384) ?? window.height
        window.resizable = try table.bool("resizable") ?? window.resizable
        return window
    }

    private static func httpURL(_ reader: ConfigReader, _ key: String) throws(ShellError) -> URL? {
        guard let text = try reader.string(key) else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
            throw reader.error(key, "must be an http(s) URL, not \(JSONValue.quoted(text))")
        }
        return url
    }

    static func maintainerProblem(_ text: String) -> Bool {
        guard let open = text.firstIndex(of: "<"), text.hasSuffix(">"), open > text.startIndex else { return true }
        let name = text[..<open].trimmingCharacters(in: .whitespaces), mail = text[text.index(after: open)..<text.index(before: text.endIndex)]
        return name.isEmpty || name.contains(">") || mail.split(separator: "@").count != 2 || mail.contains(where: { $0 == " " || $0 == "<" || $0 == ">" })
    }

    static func resolve(_ path: String, _ base: String) -> String {
        path.hasPrefix("/") ? URL(fileURLWithPath: path).standardizedFileURL.path
            : URL(fileURLWithPath: base + "/" + path).standardizedFileURL.path
    }
}
