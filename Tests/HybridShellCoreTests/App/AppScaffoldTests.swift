import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShellCore

@Suite struct AppScaffoldTests {
    @Test func writesAnAppTheManifestReaderAccepts() throws {
        let f = try PackageFixtures()
        let folder = f.path("my shop").path
        let keyID = try AppScaffold(directory: folder).write(to: folder)
        let manifest = try AppManifest.load(path: folder + "/app.toml")
        #expect(manifest.id == "org.example.My_shop" && manifest.name == "My shop" && manifest.command == "my-shop")
        #expect(manifest.schemes == ["my-shop"] && manifest.modules.enabled == [.storage])
        #expect(manifest.icon == folder + "/icon.svg" && manifest.trustedKeys == [folder + "/keys/app.pub"])
        #expect(try PackagePublicKey(contentsOf: URL(fileURLWithPath: folder + "/keys/app.pub")).keyID == keyID)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/keys/app.key")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: folder + "/.gitignore", encoding: .utf8).contains("keys/*.key\n"))
        #expect(try String(contentsOfFile: folder + "/web/hybrid.d.ts", encoding: .utf8).contains("interface Hybrid {"))
        for file in ["web/index.html", "web/app.js", "tests/app.test.html"] {
            #expect(!(try String(contentsOfFile: folder + "/" + file, encoding: .utf8)).contains("{{"), "\(file)")
        }
        // Nothing of the staging folder is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.directory.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func namesAreEscapedForEachFile() throws {
        let f = try PackageFixtures()
        let folder = f.path("app").path
        try AppScaffold(directory: folder, id: "org.example.App", name: #"Tom "&" <Jerry> \ co"#).write(to: folder)
        let manifest = try AppManifest.load(path: folder + "/app.toml")
        #expect(manifest.name == #"Tom "&" <Jerry> \ co"# && manifest.schemes == ["app-app"])
        #expect(try String(contentsOfFile: folder + "/web/index.html", encoding: .utf8).contains("<h1>Tom &quot;&amp;&quot; &lt;Jerry&gt; \\ co</h1>"))
    }

    @Test func refusesANonEmptyFolderAndBadNames() throws {
        let f = try PackageFixtures()
        let folder = f.path("full").path
        _ = try f.site("full", ["README": "mine"])
        #expect(throws: ShellError.invalidArgument("\(folder) is not empty (init only writes into a new or empty folder)")) {
            try AppScaffold(directory: folder).write(to: folder)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["README"])
        #expect(throws: ShellError.self) { try AppScaffold(directory: folder, id: "shop") }
        #expect(throws: ShellError.self) { try AppScaffold(directory: folder, name: "two\nlines") }
        #expect(AppScaffold.identifier("3d-viewer") == "App3d_viewer")
        // An empty folder is fine.
        try FileManager.default.createDirectory(at: f.path("empty"), withIntermediateDirectories: true)
        try AppScaffold(directory: f.path("empty").path).write(to: f.path("empty").path)
        #expect(FileManager.default.fileExists(atPath: f.path("empty/app.toml").path))
    }
}
