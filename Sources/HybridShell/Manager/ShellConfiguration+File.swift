import Foundation
import Logging
import HybridShellCore
import HybridShellWebKit

extension ShellConfiguration {
    /// Keys of the top level, besides the page-setting keys.
    static let globalKeys: Set<String> = ["pool", "max_pages", "data_dir", "shared_process", "allow_file_access", "log_level", "crash_recovery", "page",
                                          "dir_handlers"]
    static let pageKeys: Set<String> = ["user_agent", "user_agent_suffix", "headers", "timeout", "cache", "dialogs",
                                        "inject", "new_windows", "allow_origins"]

    /// Reads a configuration file; every problem names the file, line and key. `extraSections`
    /// are top-level tables other commands read themselves (`kiosk`).
    public static func load(path: String, extraSections: Set<String> = []) throws(ShellError) -> ShellConfiguration {
        try read(ConfigReader(ConfigDocument.load(path: path)), extraSections: extraSections)
    }

    public static func read(_ reader: ConfigReader, extraSections: Set<String> = []) throws(ShellError) -> ShellConfiguration {
        try reader.rejectUnknownKeys(globalKeys.union(pageKeys).union(ModuleConfiguration.keys).union(extraSections))
        var configuration = ShellConfiguration()
        configuration.defaults = configuration.defaults.overridden(by: try pageSettings(reader))
        configuration.poolSize = try reader.int("pool", in: ShellConfiguration.poolSizes) ?? configuration.poolSize
        configuration.maxPages = try reader.int("max_pages", in: 1...64) ?? configuration.maxPages
        if let directory = try reader.string("data_dir") {
            guard !directory.isEmpty else { throw reader.error("data_dir", "must not be empty (leave it out for ephemeral storage)") }
            // Like every path in a configuration file: relative to the file that says it (flags stay
            // relative to the working directory), so `--config` and kiosk profiles agree.
            let base = URL(fileURLWithPath: DirectoryMount.directory(containing: reader.document.file), isDirectory: true)
            configuration.storage = .persistent(directory: directory.hasPrefix("/") ? directory
                : URL(fileURLWithPath: directory, relativeTo: base).standardizedFileURL.path)
        }
        configuration.sharedProcess = try reader.bool("shared_process") ?? false
        configuration.allowFileAccess = try reader.bool("allow_file_access") ?? false
        configuration.logLevel = try reader.choice("log_level", Logger.Level.allCases.map(\.rawValue)).flatMap(Logger.Level.init(rawValue:))
        configuration.modules = try ModuleConfiguration.read(reader)
        configuration.defaults.allowedOrigins = (configuration.defaults.allowedOrigins ?? []) + configuration.modules.grantedOrigins
        if let recovery = try reader.table("crash_recovery") {
            try recovery.rejectUnknownKeys(["max_reloads", "window"])
            configuration.crashRecovery.maxReloads = try recovery.int("max_reloads", in: 0...100) ?? configuration.crashRecovery.maxReloads
            configuration.crashRecovery.window = try recovery.seconds("window", in: 1...86_400) ?? configuration.crashRecovery.window
        }
        if let mounts = try reader.strings("dir_handlers") {
            // Relative to the configuration file, so a project's config works from anywhere.
            let base = DirectoryMount.directory(containing: reader.document.file)
            for mount in mounts {
                do throws(ShellError) { configuration.dirHandlers.append(try DirectoryMount(parsing: mount, relativeTo: base)) } catch {
                    throw reader.error("dir_handlers", error.description)
                }
            }
        }
        for page in try reader.tables("page") {
            try page.rejectUnknownKeys(pageKeys.union(["match"]))
            guard let match = try page.string("match"), !match.isEmpty else {
                throw page.error("match", "each [[page]] needs a match pattern, like \"https://shop.example/*\"")
            }
            configuration.pages.append((match, try pageSettings(page)))
        }
        return configuration
    }

    static func pageSettings(_ reader: ConfigReader) throws(ShellError) -> PageSettings {
        var settings = PageSettings()
        let agent = try reader.string("user_agent"), suffix = try reader.string("user_agent_suffix")
        if agent != nil, suffix != nil { throw reader.error("user_agent_suffix", "give user_agent or user_agent_suffix, not both") }
        if let agent { settings.userAgent = .custom(agent) }
        if let suffix { settings.userAgent = .appending(suffix) }
        do {
            try settings.userAgent?.validate()
        } catch {
            throw reader.error(agent != nil ? "user_agent" : "user_agent_suffix", error.description)
        }
        if let headers = try reader.stringTable("headers") {
            var parsed: [WebRoute.Header] = []
            for (name, value) in headers {
                let header = WebRoute.Header(name: name, value: value)
                do { try header.validate() } catch { throw reader.error("headers", error.description) }
                parsed.append(header)
            }
            settings.headers = parsed
        }
        settings.timeout = try reader.seconds("timeout", in: 0.001...86_400)
        settings.cachePolicy = try reader.choice("cache", WebRoute.CachePolicy.self)
        settings.dialogs = try reader.choice("dialogs", DialogMode.self)
        settings.injection = try reader.choice("inject", BridgeConfiguration.Injection.self)
        settings.newWindows = try reader.choice("new_windows", NewWindowMode.self)
        if let patterns = try reader.strings("allow_origins") {
            var parsed: [OriginPattern] = []
            for pattern in patterns {
                do { parsed.append(try OriginPattern(parsing: pattern)) } catch { throw reader.error("allow_origins", error.description) }
            }
            settings.allowedOrigins = parsed
        }
        return settings
    }
}
