import ArgumentParser
import HybridShell

/// `hybrid-run test`'s native-module flags (kept apart from the runner's own): which built-in
/// modules the test pages get, who else may use them, and where storage lives. The modules run
/// in their deterministic headless mode; `--handlers` mocks still replace their handlers.
struct TestModuleOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Enable built-in native modules for the pages (comma-separated, repeatable): storage, system, clipboard, http, files, ui, notification, print (navigation: mock it with --handlers). Example: --modules storage,system",
        valueName: "names"))
    var modules: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Let documents of another origin use modules or single handlers (repeatable; test pages have every enabled module). Example: --grant 'https://*.example.org=storage'",
        valueName: "origin=modules"))
    var grant: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Read modules, [[capability]] and [module_settings] (headless answers: network, clipboard_text, file_choice, modal_confirms) from a hybrid-run config file or an app's app.toml. Example: --config app.toml",
        valueName: "file"))
    var config: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Keep module storage in this directory, shared by the pages (default: in memory, every page starts empty). Example: --data-dir /tmp/app-data",
        valueName: "dir"))
    var dataDir: String?

    /// Puts the modules into the executor's settings; bad names and grants are usage errors.
    func apply(to settings: inout WebKitPageTestExecutor.Settings) throws {
        var configuration = ModuleConfiguration()
        if let config {
            // An app's app.toml (it has an `id`) gives the modules the app runs with.
            let document = try ConfigDocument.load(path: config)
            configuration = document.root["id"] != nil ? try AppManifest.read(ConfigReader(document)).modules
                : try ShellConfiguration.read(ConfigReader(document)).modules
            settings.additionalOrigins += configuration.grantedOrigins
        }
        if !modules.isEmpty {
            configuration.enabled = try BuiltinModule.parseList(modules.flatMap { $0.split(separator: ",").map(String.init) }, what: "--modules")
        }
        let grants = try grant.map { try Capability(grant: $0) }
        for capability in grants {
            _ = try BuiltinModule.parseList(capability.modules.sorted() + capability.handlers.sorted().map { String($0.prefix { $0 != "." }) },
                                            what: "--grant")
        }
        configuration.capabilities += grants
        settings.additionalOrigins += grants.flatMap(\.origins)
        if dataDir != nil, configuration.enabled.isEmpty {
            throw ShellError.invalidArgument("--data-dir keeps module storage; enable modules with --modules or a --config file")
        }
        settings.modules = configuration
        settings.moduleDataDirectory = dataDir
    }
}
