import HybridShell
import Testing

@Suite("Module configuration: modules, [[capability]], [module_settings] (pure)")
struct ModuleConfigurationTests {
    func toml(_ text: String) throws(ShellError) -> ShellConfiguration {
        try ShellConfiguration.read(ConfigReader(ConfigDocument.parse(text, file: "app.toml", format: .toml)))
    }

    @Test func readsModulesCapabilitiesAndSettings() throws {
        let configuration = try toml("""
            modules = ["storage", "navigation", "system", "clipboard", "ui"]

            [[capability]]
            origins = ["https://*.example.org"]
            modules = ["storage", "system"]
            handlers = ["http.request"]
            deny = ["clipboard"]

            [[capability]]
            origins = ["http://127.0.0.1:9000"]
            deny = ["storage.clear"]

            [module_settings]
            storage_quota_kb = 64
            network = "offline"
            clipboard_text = "seed"
            modal_confirms = false
            """)
        let modules = configuration.modules
        #expect(modules.enabled == [.storage, .navigation, .system, .clipboard, .ui])
        #expect(modules.capabilities.count == 2)
        #expect(modules.capabilities[0].origins.map(\.description) == ["https://*.example.org"])
        #expect(modules.capabilities[0].modules == ["storage", "system"])
        #expect(modules.capabilities[0].handlers == ["http.request"])
        #expect(modules.capabilities[0].deny == ["clipboard"])
        #expect(modules.storageQuota == 64 * 1024)
        #expect(modules.networkOverride == .offline)
        #expect(modules.clipboardText == "seed")
        #expect(modules.modalConfirms == false)
        #expect(modules.httpMaxBytes == 100 * 1024 * 1024, "the default")
        #expect(try toml("[module_settings]\nhttp_max_bytes = 4096").modules.httpMaxBytes == 4096)
        // A granting capability's origins get a bridge; a deny-only one's do not.
        #expect(configuration.defaults.allowedOrigins?.map(\.description) == ["https://*.example.org"])
    }

    @Test(arguments: [
        ("modules = [\"storage\", \"teleport\"]", "app.toml:1: modules: modules: unknown module \"teleport\""),
        ("modules = \"storage\"", "app.toml:1: modules: expected an array of strings, got a string"),
        ("[[capability]]\nmodules = [\"storage\"]", "app.toml:1: capability.0.origins: each [[capability]] needs origins"),
        ("[[capability]]\norigins = [\"example.org\"]", "app.toml:2: capability.0.origins: origin pattern \"example.org\" needs a scheme"),
        ("[[capability]]\norigins = [\"https://a.org\"]\nmodules = [\"camera\"]", "app.toml:3: capability.0.modules: unknown module \"camera\""),
        ("[[capability]]\norigins = [\"https://a.org\"]\nhandlers = [\"storage\"]", "app.toml:3: capability.0.handlers: \"storage\" is not a module handler"),
        ("[[capability]]\norigins = [\"https://a.org\"]\ngrant = [\"storage\"]", "app.toml:3: capability.0.grant: unknown key"),
        ("[module_settings]\nnetwork = \"maybe\"", "app.toml:2: module_settings.network: must be one of online, offline"),
        ("[module_settings]\nstorage_quota_kb = 0", "app.toml:2: module_settings.storage_quota_kb: must be between 1 and 1048576"),
        ("[module_settings]\nhttp_max_bytes = 0", "app.toml:2: module_settings.http_max_bytes: must be between 1 and"),
        ("[module_settings]\nhttp_max_bytes = \"1MB\"", "app.toml:2: module_settings.http_max_bytes: expected a whole number"),
    ])
    func badModuleConfigurationNamesTheLineAndKey(text: String, message: String) {
        let error = #expect(throws: ShellError.self) { try toml(text) }
        #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "no error")")
    }
}
