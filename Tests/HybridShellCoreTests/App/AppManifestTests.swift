import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShellCore

@Suite struct AppManifestTests {
    /// An app folder with `web/index.html`, an icon and a public key; `app.toml` is the text given.
    func app(_ toml: String, _ fixtures: PackageFixtures) throws -> String {
        _ = try fixtures.site("app/web", ["index.html": "<h1>app</h1>", "sub/page.html": "<p>"])
        try Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).write(to: fixtures.path("app/icon.svg"))
        try Data(fixtures.key.publicKey.fileText.utf8).write(to: fixtures.path("app/app.pub"))
        try Data(fixtures.key.fileText.utf8).write(to: fixtures.path("app/app.key"))
        try Data(toml.utf8).write(to: fixtures.path("app/app.toml"))
        return fixtures.path("app/app.toml").path
    }

    static let complete = """
        id = "org.example.Shop"
        name = "Shop"
        version = "1.2.0"
        summary = "Buy things"
        description = \"\"\"
        A shop.

        With two paragraphs.\"\"\"
        license = "MIT"
        maintainer = "Shop People <shop@example.org>"
        homepage = "https://shop.example/"
        entry = "sub/page.html"
        schemes = ["shop", "Shop-Legacy"]
        icon = "icon.svg"
        update_url = "https://updates.shop.example/index.json"
        trusted_keys = ["app.pub"]
        modules = ["storage", "system"]

        [window]
        title = "The Shop"
        width = 800
        height = 600
        resizable = false

        [[capability]]
        origins = ["https://*.shop.example"]
        modules = ["system"]

        [kiosk]
        hide_cursor = "always"
        """

    @Test func readsEveryKeyAndResolvesPathsAgainstTheFile() throws {
        let f = try PackageFixtures()
        let manifest = try AppManifest.load(path: try app(Self.complete, f))
        let folder = f.path("app").standardizedFileURL.path
        #expect(manifest.id == "org.example.Shop")
        #expect(manifest.name == "Shop" && manifest.version == "1.2.0" && manifest.summary == "Buy things")
        #expect(manifest.description == "A shop.\n\nWith two paragraphs.")
        #expect(manifest.license == "MIT" && manifest.homepage?.absoluteString == "https://shop.example/")
        #expect(manifest.web == folder + "/web" && manifest.entry == "sub/page.html")
        #expect(manifest.entryURL == "app://org.example.shop/sub/page.html")
        #expect(manifest.origin == "app://org.example.shop")
        #expect(manifest.command == "shop")
        #expect(manifest.window == AppManifest.Window(title: "The Shop", width: 800, height: 600, resizable: false))
        #expect(manifest.modules.enabled == [.storage, .system] && manifest.modules.capabilities.count == 1)
        #expect(manifest.schemes == ["shop", "shop-legacy"])
        #expect(manifest.icon == folder + "/icon.svg")
        #expect(manifest.updateURL?.absoluteString == "https://updates.shop.example/index.json")
        #expect(manifest.trustedKeys == [folder + "/app.pub"])
        #expect(manifest.kiosk?.members["hide_cursor"]?.stringValue == "always")
        #expect(manifest.directory == folder)
        #expect(manifest.maintainer == "Shop People <shop@example.org>" && manifest.preset == nil)
    }

    /// An installed app.toml names its package instead of a web folder.
    @Test func aPresetStandsInForTheWebFolder() throws {
        let f = try PackageFixtures()
        let path = try app("id = \"org.example.Shop\"\nname = \"Shop\"\nversion = \"1.0\"\nweb = \"gone\"\npreset = \"app.pub\"\n", f)
        #expect(try AppManifest.load(path: path).preset == f.path("app/app.pub").standardizedFileURL.path)
        try Data("id = \"org.example.Shop\"\nname = \"Shop\"\nversion = \"1.0\"\npreset = \"shop.zip\"\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ShellError.self) { try AppManifest.load(path: path) }
    }

    @Test func theSmallestAppHasDefaults() throws {
        let f = try PackageFixtures()
        let manifest = try AppManifest.load(path: try app("id = \"org.example.Tiny_Thing\"\nname = \"Tiny\"\nversion = \"0.1\"\n", f))
        #expect(manifest.entry == "index.html" && manifest.command == "tiny-thing" && manifest.schemes.isEmpty)
        #expect(manifest.window == AppManifest.Window(title: "Tiny", width: 1024, height: 768, resizable: true))
        #expect(manifest.icon == nil && manifest.kiosk == nil && manifest.trustedKeys.isEmpty && manifest.modules.enabled.isEmpty)
    }

    /// Each bad input is one error naming the file, the line and the key.
    @Test(arguments: [
        ("colour = \"red\"", 4, "colour: unknown key"),
        ("[window]\ndepth = 3", 5, "window.depth: unknown key"),
        ("icon = \"missing.png\"", 4, "icon: no such file: "),
        ("icon = \"app.pub\"", 4, "icon: \"app.pub\" must be a .png or .svg file"),
        ("web = \"site\"", 4, "web: the web folder "),
        ("entry = \"nope.html\"", 4, "entry: no such file: "),
        ("schemes = [\"https\"]", 4, "schemes: \"https\" is reserved"),
        ("schemes = [\"shop://\"]", 4, "schemes: \"shop://\" is not a URL scheme"),
        ("trusted_keys = [\"app.key\"]", 4, "trusted_keys: "),
        ("trusted_keys = [\"none.pub\"]", 4, "trusted_keys: "),
        ("update_url = \"ftp://x\"", 4, "update_url: must be an http(s) URL"),
        ("modules = [\"teleport\"]", 4, "modules: "),
        ("command = \"Shop App\"", 4, "command: \"Shop App\" must be"),
        ("maintainer = \"me\"", 4, "maintainer: \"me\" is not Name <mail@address>"),
        ("[window]\nwidth = 5", 5, "window.width: must be between 100 and 16384, not 5"),
    ])
    func badInputNamesFileLineAndKey(extra: String, line: Int, message: String) throws {
        let f = try PackageFixtures()
        let path = try app("id = \"org.example.Shop\"\nname = \"Shop\"\nversion = \"1.0\"\n" + extra + "\n", f)
        let error = #expect(throws: ShellError.self) { try AppManifest.load(path: path) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix(f.path("app/app.toml").standardizedFileURL.path + ":\(line): " + message), "\(text)")
    }

    @Test func aBadIdIsRefusedOnItsLine() throws {
        let f = try PackageFixtures()
        let path = try app("name = \"Shop\"\nid = \"shop\"\nversion = \"1.0\"\n", f)
        let error = #expect(throws: ShellError.self) { try AppManifest.load(path: path) }
        #expect(error?.description.contains("app.toml:2: id: \"shop\" is not reverse-DNS") == true, "\(error?.description ?? "")")
    }

    @Test(arguments: [
        ("org.example.Shop", nil), ("io.github.user.App_2", nil), ("shop", "is not reverse-DNS"), ("org..Shop", "empty part"),
        ("org.example.my-shop", "'-'"), ("org.3d.Shop", "starting with a digit"), ("org.exämple.Shop", "ASCII"),
    ] as [(String, String?)])
    func idRules(id: String, problem: String?) {
        let found = AppManifest.idProblem(id)
        #expect(problem == nil ? found == nil : found?.contains(problem!) == true, "\(id): \(found ?? "ok")")
    }

    @Test func versionsSchemesAndCommands() {
        #expect(AppManifest.versionProblem("1.0.0~rc1+git") == nil && AppManifest.versionProblem("v1") != nil && AppManifest.versionProblem("1 0") != nil)
        #expect(AppManifest.schemeProblem("web+shop") == nil && AppManifest.schemeProblem("app") != nil && AppManifest.schemeProblem("1x") != nil)
        #expect(AppManifest.commandProblem("shop") == nil && AppManifest.commandProblem("-shop") != nil && AppManifest.commandProblem("") != nil)
        #expect(AppManifest.defaultCommand(for: "org.example.My_Shop") == "my-shop")
    }
}
