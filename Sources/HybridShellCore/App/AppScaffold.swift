import Foundation

/// A new app's files, as `hybrid-run init` writes them: `app.toml`, `web/` (a page using the bridge
/// and the storage module, `hybrid.d.ts`), a page test, an icon, a `.gitignore` and a signing key
/// pair (`keys/app.key`, mode 0600 and git-ignored; `keys/app.pub`, trusted by `app.toml`).
/// The templates are `templates/app` in the repository, embedded as ``AppTemplates``.
public struct AppScaffold: Sendable {
    /// Reverse-DNS (``AppManifest/idProblem(_:)``).
    public var id: String
    /// The name people see.
    public var name: String

    /// Checks `id` and `name`; without them they come from the folder's name (`shop` →
    /// `Shop`, `org.example.Shop`; `my shop` →
    /// `My shop`, `org.example.My_shop`).
    public init(directory: String, id: String? = nil, name: String? = nil) throws(ShellError) {
        let base = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
        self.name = name ?? base.prefix(1).uppercased() + base.dropFirst()
        self.id = id ?? "org.example.\(Self.identifier(base))"
        if let problem = AppManifest.idProblem(self.id) {
            throw .invalidArgument("the app id \(JSONValue.quoted(self.id)) \(problem)\(id == nil ? " (give one with --id)" : "")")
        }
        let trimmed = self.name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, self.name.count <= 100, !self.name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidArgument("the app name \(JSONValue.quoted(self.name)) must be one line of 1 to 100 characters")
        }
    }

    /// The deep-link scheme: the command name, unless that is reserved (`org.example.App`).
    public var scheme: String {
        let command = AppManifest.defaultCommand(for: id)
        return AppManifest.schemeProblem(command) == nil ? command : command + "-app"
    }

    /// Every file but the key pair: path in the app → contents, placeholders filled in, escaped
    /// for the file's language (TOML strings, HTML text).
    public func files() -> [(path: String, contents: String)] {
        AppTemplates.files.map { template in
            let escape: (String) -> String = switch URL(fileURLWithPath: template.path).pathExtension {
            case "toml": Self.tomlEscaped
            case "html", "svg": Self.htmlEscaped
            default: { $0 }
            }
            var text = template.text
            for (key, value) in [("id", id), ("name", name), ("scheme", scheme), ("command", AppManifest.defaultCommand(for: id))] {
                text = text.replacingOccurrences(of: "{{\(key)}}", with: escape(value))
            }
            return (template.path, text + "\n")
        }
    }

    /// Writes the app into `directory`, which must not exist or be empty. Everything is written
    /// into a hidden folder beside it first and moved into place at the end: a failure leaves no
    /// half-made app. Returns the public key's id.
    @discardableResult
    public func write(to directory: String) throws(ShellError) -> String {
        try Self.checkTarget(directory)
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        let manager = FileManager.default
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).init-\(getpid())")
        let key = PackageSigningKey()
        let existed = manager.fileExists(atPath: target.path)
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: true)
            var contents = files().map { ($0.path, Data($0.contents.utf8), 0o644) }
            contents.append(("keys/app.key", Data(key.fileText.utf8), 0o600))
            contents.append(("keys/app.pub", Data(key.publicKey.fileText.utf8), 0o644))
            for (path, data, mode) in contents {
                let url = staging.appendingPathComponent(path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Created with its final mode: the private key is never readable by others, not even briefly.
                guard manager.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: mode]) else {
                    throw ShellError.invalidArgument("cannot write \(url.path)")
                }
            }
            if existed {
                // The empty folder stays (it may be the caller's working directory): its entries move in.
                for entry in try manager.contentsOfDirectory(atPath: staging.path) {
                    try manager.moveItem(at: staging.appendingPathComponent(entry), to: target.appendingPathComponent(entry))
                }
                try manager.removeItem(at: staging)
            } else {
                try manager.moveItem(at: staging, to: target)
            }
        } catch {
            if existed {
                // The folder was empty: whatever is in it now was moved in before the failure.
                for entry in (try? manager.contentsOfDirectory(atPath: target.path)) ?? [] {
                    try? manager.removeItem(at: target.appendingPathComponent(entry))
                }
            }
            try? manager.removeItem(at: staging)
            throw error as? ShellError ?? .invalidArgument("cannot write the app into \(target.path): \(error.localizedDescription)")
        }
        return key.publicKey.keyID
    }

    /// Fails unless `directory` is missing or an empty folder.
    public static func checkTarget(_ directory: String) throws(ShellError) {
        let path = URL(fileURLWithPath: directory).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw .invalidArgument("\(path) exists and is not a folder") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard entries.isEmpty else { throw .invalidArgument("\(path) is not empty (init only writes into a new or empty folder)") }
    }

    /// `my shop` → `My_shop`: a word usable as the name and the id's last part.
    static func identifier(_ text: String) -> String {
        var word = String(text.unicodeScalars.map { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") ? Character($0) : "_" })
        if word.isEmpty || word.first!.isNumber || word == "_" { word = "App" + word }
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    static func tomlEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func htmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
