import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// What `app://<appID>/…` answers, without WebKit: the pure decision and the handler over a real store.
@Suite struct PackageServingTests {
    static let manifest = PackageManifest(appID: "demo", version: "1", sequence: 3, entry: "index.html", files: [
        .init(path: "index.html", size: 1, sha256: "aa"), .init(path: "css/site.css", size: 2, sha256: "bb"),
        .init(path: "docs/index.html", size: 3, sha256: "cc"), .init(path: "a b.js", size: 4, sha256: "dd"),
    ])

    @Test(arguments: [
        ("/", "index.html"), ("/index.html", "index.html"), ("/css/site.css", "css/site.css"),
        ("/docs", "docs/index.html"), ("/docs/", "docs/index.html"), ("/a%20b.js", "a b.js"),
    ])
    func listedFilesAreServed(path: String, file: String) {
        guard case .serve(let served, let sha, _) = PackageRequestDecision.decide(rawPath: path, manifest: Self.manifest) else {
            Issue.record("\(path) was not served")
            return
        }
        #expect(served == file)
        #expect(sha == Self.manifest.files.first { $0.path == file }?.sha256)
    }

    @Test(arguments: ["/nope.html", "/css", "/css/other.css", "/INDEX.HTML"])
    func unlistedPathsAreNotFound(path: String) {
        guard case .notFound(let reason) = PackageRequestDecision.decide(rawPath: path, manifest: Self.manifest) else {
            Issue.record("\(path) was not 404")
            return
        }
        #expect(reason.contains("demo sequence 3"))
    }

    @Test(arguments: ["/..%2fstate.json", "/%2e%2e/state.json", "/css/%00.css", "//index.html", "/css\\site.css",
                      "/.hidden", "/css/%2fetc%2fpasswd", "index.html"])
    func traversalIsForbidden(path: String) {
        guard case .forbidden = PackageRequestDecision.decide(rawPath: path, manifest: Self.manifest) else {
            Issue.record("\(path) was not refused")
            return
        }
    }

    // MARK: - The handler over a store on disk

    static func request(_ url: String, page: SchemePage? = nil, headers: [(name: String, value: String)] = []) -> SchemeRequest {
        SchemeRequest(url: url, headers: headers, page: page)
    }

    static func text(_ response: SchemeResponse) async throws -> String {
        switch response.body {
        case .bytes(let data): return String(decoding: data, as: UTF8.self)
        case .file(let path, let offset, let length):
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return String(decoding: data[Int(offset)..<Int(offset + length)], as: UTF8.self)
        case .stream(let chunks, _):
            var data = Data()
            for try await chunk in chunks { data.append(chunk) }
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test func servesTheActiveVersionWithTheSignedHashAsETag() async throws {
        let f = try PackageFixtures()
        let store = f.store()
        let installed = try store.install(file: try f.pack(try f.site("s1", PackageFixtures.v1), "d1.zip", sequence: 1))
        let handler = PackageSchemeHandler(store: store)
        let entry = try await handler.response(for: Self.request("app://demo/"))
        #expect(entry.status == 200)
        #expect(try await Self.text(entry) == "<h1>one</h1>")
        let sha = installed.manifest.files.first { $0.path == "index.html" }!.sha256
        #expect(entry.header("ETag") == "\"\(sha)\"")
        #expect(entry.header("Content-Type")?.hasPrefix("text/html") == true)
        let again = try await handler.response(for: Self.request("app://demo/index.html", headers: [("If-None-Match", "\"\(sha)\"")]))
        #expect(again.status == 304)
        #expect(try await handler.response(for: Self.request("app://demo/css/site.css")).status == 200)
        // A capitalised app id is reached through its lower-cased host.
        try store.install(file: try f.pack(try f.site("s1", PackageFixtures.v1), "c1.zip", sequence: 1, app: "CamelApp"))
        #expect(try await handler.response(for: Self.request("app://camelapp/index.html")).status == 200)
    }

    @Test func refusesWhatTheManifestDoesNotList() async throws {
        let f = try PackageFixtures()
        let store = f.store()
        let installed = try store.install(file: try f.pack(try f.site("s1", PackageFixtures.v1), "d1.zip", sequence: 1))
        let handler = PackageSchemeHandler(store: store)
        // Dropped into the install directory after the install: not signed, not served.
        try Data("<script>evil()</script>".utf8).write(to: installed.root.appendingPathComponent("dropped.html"))
        #expect(try await handler.response(for: Self.request("app://demo/dropped.html")).status == 404)
        #expect(try await handler.response(for: Self.request("app://demo/..%2f..%2fstate.json")).status == 403)
        #expect(try await handler.response(for: Self.request("app://demo/js/%00app.js")).status == 403)
        #expect(try await handler.response(for: Self.request("app://other/index.html")).status == 404)
        #expect(try await handler.response(for: Self.request("app:///index.html")).status == 404)
        #expect(try await handler.response(for: SchemeRequest(method: "POST", url: "app://demo/index.html")).status == 405)
        // A listed file replaced by a symlink out of the version, or changed in size: not served as signed.
        let app = installed.root.appendingPathComponent("js/app.js")
        try FileManager.default.removeItem(at: app)
        try FileManager.default.createSymbolicLink(atPath: app.path, withDestinationPath: "/etc/passwd")
        #expect(try await handler.response(for: Self.request("app://demo/js/app.js")).status == 404)
        try Data("body { color: blue; }".utf8).write(to: installed.root.appendingPathComponent("css/site.css"))
        #expect(try await handler.response(for: Self.request("app://demo/css/site.css")).status == 500)
    }

    @Test func aHostlessRequestGoesToTheMountedDirectory() async throws {
        let f = try PackageFixtures()
        let dist = try f.site("dist", ["index.html": "mounted"])
        let handler = PackageSchemeHandler(store: f.store(), fallback: try DirectoryHandler(root: dist.path))
        let response = try await handler.response(for: Self.request("app:///index.html"))
        #expect(response.status == 200)
        #expect(try await Self.text(response) == "mounted")
    }

    @Test func anUpdateAppliesAtTheNextPageOpen() async throws {
        let f = try PackageFixtures()
        let store = f.store()
        try store.install(file: try f.pack(try f.site("s1", PackageFixtures.v1), "d1.zip", sequence: 1))
        let handler = PackageSchemeHandler(store: store)
        let page = SchemePage(id: 7, url: "app://demo/index.html")
        #expect(try await Self.text(try await handler.response(for: Self.request("app://demo/index.html", page: page))) == "<h1>one</h1>")
        try store.install(file: try f.pack(try f.site("s2", PackageFixtures.v2), "d2.zip", sequence: 2))
        // The open page keeps its version: v1's script is still there, v2's is not.
        #expect(try await handler.response(for: Self.request("app://demo/js/app.js", page: page)).status == 200)
        #expect(try await handler.response(for: Self.request("app://demo/js/new.js", page: page)).status == 404)
        // Its next document (a reload) and any other page get v2.
        #expect(try await Self.text(try await handler.response(for: Self.request("app://demo/index.html", page: page))) == "<h1>two</h1>")
        #expect(try await handler.response(for: Self.request("app://demo/js/new.js", page: page)).status == 200)
        #expect(try await handler.response(for: Self.request("app://demo/js/app.js", page: page)).status == 404)
    }

    @Test func thePathMapListsOnlyMappedSubresourcesOfEnabledApps() throws {
        let files: [PackageManifest.File] = [.init(path: "index.html", size: 1, sha256: "a"), .init(path: "js/app.js", size: 1, sha256: "b"),
                                             .init(path: "Big Img.png", size: 1, sha256: "c")]
        let manifest = PackageManifest(appID: "Shop", version: "1", sequence: 1, entry: "index.html", files: files, pathMap: [
            "https://h5.example/app/app.js": "js/app.js", "/app/img.png": "Big Img.png", "https://h5.example/app/": "index.html",
            "https://h5.example/app/missing.js": "js/missing.js", "ftp://h5.example/x.js": "js/app.js",
        ])
        let installed = InstalledPackage(manifest: manifest, root: URL(fileURLWithPath: "/x"), trustedSequence: 1, previousSequence: nil)
        #expect(PathMapExtension.map([installed]) == ["https://h5.example/app/app.js": "app://shop/js/app.js"])
        #expect(PathMapExtension.map([installed], onlineBase: URL(string: "https://h5.example/app/")) == [
            "https://h5.example/app/app.js": "app://shop/js/app.js", "https://h5.example/app/img.png": "app://shop/Big%20Img.png",
        ])
        var disabled = manifest
        disabled.enable = false
        #expect(PathMapExtension.map([InstalledPackage(manifest: disabled, root: URL(fileURLWithPath: "/x"), trustedSequence: 1,
                                                       previousSequence: nil)]).isEmpty)
    }

    @Test func configurationKeysAreReadAndChecked() throws {
        let f = try PackageFixtures()
        let file = f.path("shell.toml")
        try Data("trusted_keys = [\"keys/rel.pub\"]\npreset = \"preset.zip\"\npackage = \"shop\"\nreport_url = \"http://127.0.0.1:9/report\"\n".utf8)
            .write(to: file)
        let serving = try PackageServing.read(ConfigReader(ConfigDocument.load(path: file.path)))
        #expect(serving.trustedKeys == [f.directory.standardizedFileURL.path + "/keys/rel.pub"])
        #expect(serving.preset == f.directory.standardizedFileURL.path + "/preset.zip")
        #expect(serving.package == "shop")
        #expect(serving.reportURL?.absoluteString == "http://127.0.0.1:9/report")
        try Data("package = \"../x\"\n".utf8).write(to: file)
        #expect(throws: ShellError.self) { try PackageServing.read(ConfigReader(ConfigDocument.load(path: file.path))) }
        try Data("report_url = \"file:///etc/passwd\"\n".utf8).write(to: file)
        #expect(throws: ShellError.self) { try PackageServing.read(ConfigReader(ConfigDocument.load(path: file.path))) }
        #expect(try PackageServing.rootURL(of: "Shop") == "app://shop/")
    }

    @Test func updateKeysAreReadAndChecked() throws {
        let f = try PackageFixtures()
        let file = f.path("shell.toml")
        try Data("update_url = \"https://updates.example/shop/\"\nupdate_interval = 600\n".utf8).write(to: file)
        let serving = try PackageServing.read(ConfigReader(ConfigDocument.load(path: file.path)))
        #expect(serving.updateURL?.absoluteString == "https://updates.example/shop/" && serving.updateInterval == .seconds(600))
        try Data("update_url = \"mirror\"\n".utf8).write(to: file)
        #expect(try PackageServing.read(ConfigReader(ConfigDocument.load(path: file.path))).updateURL?.path
                == f.directory.standardizedFileURL.path + "/mirror")
        for bad in ["update_url = \"ftp://x/\"", "update_url = \"https:///\"", "update_interval = -1", "update_interval = 700000", "update_interval = \"1h\""] {
            try Data((bad + "\n").utf8).write(to: file)
            #expect(throws: ShellError.self, "\(bad)") { try PackageServing.read(ConfigReader(ConfigDocument.load(path: file.path))) }
        }
    }
}
