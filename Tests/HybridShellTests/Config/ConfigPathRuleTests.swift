import Foundation
import HybridShell
import Testing

/// Issue 12, item 11: a relative path in a configuration file is relative to the directory of the
/// file that says it, for `--config` files and kiosk profiles alike.
@Suite("Relative paths in configuration files")
struct ConfigPathRuleTests {
    @Test func dataDirInAConfigIsRelativeToTheFile() throws {
        for (text, format) in [("data_dir = \"state\"\n", ConfigDocument.Format.toml), ("{\"data_dir\": \"state\"}", .json)] {
            let document = try ConfigDocument.parse(text, file: "/srv/app/conf/app.toml", format: format)
            let configuration = try ShellConfiguration.read(ConfigReader(document))
            #expect(configuration.storage == .persistent(directory: "/srv/app/conf/state"))
        }
        let up = try ConfigDocument.parse("data_dir = \"../var/data\"\n", file: "/srv/app/conf/app.toml", format: .toml)
        #expect(try ShellConfiguration.read(ConfigReader(up)).storage == .persistent(directory: "/srv/app/var/data"))
        let absolute = try ConfigDocument.parse("data_dir = \"/var/lib/app\"\n", file: "/srv/app/conf/app.toml", format: .toml)
        #expect(try ShellConfiguration.read(ConfigReader(absolute)).storage == .persistent(directory: "/var/lib/app"))
    }

    /// The same line in a `--config` file and in a kiosk profile in the same directory names the
    /// same directory, whatever the working directory is.
    @Test func configAndKioskProfileAgree() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-rule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("app.toml"), profile = folder.appendingPathComponent("kiosk.toml")
        try Data("data_dir = \"state\"\n".utf8).write(to: config)
        try Data("home = \"https://kiosk.example/\"\ndata_dir = \"state\"\n".utf8).write(to: profile)
        let expected = WebContext.Storage.persistent(directory: folder.appendingPathComponent("state").standardizedFileURL.path)
        #expect(try ShellConfiguration.load(path: config.path).storage == expected)
        #expect(try KioskProfile.load(path: profile.path).shell.storage == expected)
        #expect(FileManager.default.currentDirectoryPath != folder.path)
    }
}
