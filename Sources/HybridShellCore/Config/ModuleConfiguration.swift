/// Which built-in modules `hybrid-run` enables, who may use them, and their settings — the
/// `modules`, `[[capability]]` and `[module_settings]` keys of a configuration file, and the
/// `--modules` / `--grant` flags.
public struct ModuleConfiguration: Sendable, Equatable {
    /// Enabled built-in modules. Empty by default: pages get only the built-in handlers.
    public var enabled: [BuiltinModule] = []
    public var capabilities: [Capability] = []
    /// Bytes of keys and values one origin may keep in `storage` (WeChat's limit: 10 MB).
    public var storageQuota = 10 * 1024 * 1024
    /// The network status `system` reports instead of GLib's (`online`/`offline`): deterministic
    /// page tests.
    public var networkOverride: NetworkStatus?
    /// What `clipboard.get` returns before anything was set when there is no display clipboard
    /// (headless runs use a private clipboard so runs cannot see each other).
    public var clipboardText = ""
    /// The answer of `files.choose` headless: a path, or nil for "cancelled".
    public var fileChoice: String?
    /// How `ui.showModal` is answered headless: confirm (true) or cancel (false).
    public var modalConfirms = true
    /// Origins `http.request` may reach (`http_allow`); none by default.
    public var httpAllow: [OriginPattern] = []
    /// The largest http response body answered inline; larger ones come as `hybrid-file://` URLs.
    public var httpInlineLimit = 16 * 1024 * 1024
    /// The largest http response body accepted at all, decoded (`http_max_bytes`, 100 MiB):
    /// counted while it streams in, so a bigger one is cut off there and never reaches the disk.
    public var httpMaxBytes = 100 * 1024 * 1024
    /// Directories `print.page` may write PDF files into (`print_dirs`); none by default.
    public var printDirs: [String] = []
    /// Printers `print.page` may print to without a dialog (`printers`); none by default.
    public var printers: [String] = []

    public init() {}

    public enum NetworkStatus: String, Sendable, CaseIterable {
        case online, offline
    }
}

extension ModuleConfiguration {
    package static let keys: Set<String> = ["modules", "capability", "module_settings"]

    /// Reads `modules`, `[[capability]]` and `[module_settings]` from the top level of a file.
    public static func read(_ reader: ConfigReader) throws(ShellError) -> ModuleConfiguration {
        var configuration = ModuleConfiguration()
        if let names = try reader.strings("modules") {
            do {
                configuration.enabled = try BuiltinModule.parseList(names, what: "modules")
            } catch {
                throw reader.error("modules", error.description)
            }
        }
        for table in try reader.tables("capability") {
            try table.rejectUnknownKeys(["origins", "modules", "handlers", "deny"])
            guard let patterns = try table.strings("origins"), !patterns.isEmpty else {
                throw table.error("origins", "each [[capability]] needs origins, like [\"https://*.example.org\"]")
            }
            var origins: [OriginPattern] = []
            for pattern in patterns {
                do { origins.append(try OriginPattern(parsing: pattern)) } catch { throw table.error("origins", error.description) }
            }
            let modules = try table.strings("modules") ?? []
            for name in modules where BuiltinModule(rawValue: name) == nil {
                throw table.error("modules", "unknown module \(JSONValue.quoted(name)) (known: \(BuiltinModule.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let handlers = try table.strings("handlers") ?? []
            for name in handlers where !name.contains(".") || BuiltinModule(rawValue: String(name.prefix { $0 != "." })) == nil {
                throw table.error("handlers", "\(JSONValue.quoted(name)) is not a module handler (module.handler, like http.request)")
            }
            configuration.capabilities.append(Capability(origins: origins, modules: Set(modules), handlers: Set(handlers),
                                                         deny: Set(try table.strings("deny") ?? [])))
        }
        if let settings = try reader.table("module_settings") {
            try settings.rejectUnknownKeys(["storage_quota_kb", "network", "clipboard_text", "file_choice", "modal_confirms", "http_allow",
                                           "http_max_bytes", "print_dirs", "printers"])
            if let quota = try settings.int("storage_quota_kb", in: 1...1_048_576) { configuration.storageQuota = quota * 1024 }
            configuration.networkOverride = try settings.choice("network", NetworkStatus.allCases.map(\.rawValue)).flatMap(NetworkStatus.init(rawValue:))
            configuration.clipboardText = try settings.string("clipboard_text") ?? ""
            configuration.fileChoice = try settings.string("file_choice")
            configuration.modalConfirms = try settings.bool("modal_confirms") ?? true
            if let maxBytes = try settings.int("http_max_bytes", in: 1...(1 << 40)) { configuration.httpMaxBytes = maxBytes }
            for pattern in try settings.strings("http_allow") ?? [] {
                do { configuration.httpAllow.append(try OriginPattern(parsing: pattern)) } catch { throw settings.error("http_allow", error.description) }
            }
            configuration.printDirs = try settings.strings("print_dirs") ?? []
            for directory in configuration.printDirs where !directory.hasPrefix("/") {
                throw settings.error("print_dirs", "\(JSONValue.quoted(directory)) is not an absolute path")
            }
            configuration.printers = try settings.strings("printers") ?? []
        }
        return configuration
    }
}

extension ModuleConfiguration {
    /// Origins a capability grants something to: they get a working bridge too.
    public var grantedOrigins: [OriginPattern] {
        capabilities.filter { !$0.modules.isEmpty || !$0.handlers.isEmpty }.flatMap(\.origins)
    }
}

extension WebContextConfiguration.Storage {
    /// The data directory of a persistent context.
    public var directory: String? {
        if case .persistent(let directory) = self { return directory }
        return nil
    }
}
