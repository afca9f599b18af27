import Foundation
import HybridShellTestSupport
import Synchronization
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Issue 31 items 6 and 8, without WebKit: the handler serves what the publisher signed (not what
/// the store's files say now), and only to the app's own pages.
@Suite struct PackageIntegrityTests {
    typealias Request = PackageServingTests

    final class Events: Sendable {
        let all = Mutex<[PackageEvent]>([])
        var failures: [String] {
            all.withLock { $0.compactMap { if case .failed(_, let reason) = $0 { reason } else { nil } } }
        }
    }

    @Test func aTamperedFileIsA500AndAnEventOnceAndAnAddedFileIsNotServed() async throws {
        let f = try PackageFixtures()
        let events = Events()
        let store = f.store(observer: { event in events.all.withLock { $0.append(event) } })
        let installed = try store.install(file: try f.pack(try f.site("s1", PackageFixtures.v1), "d1.zip", sequence: 1))
        let handler = PackageSchemeHandler(store: store)
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js")).status == 200)
        // Same length, other bytes (the old size check let this through).
        let app = installed.root.appendingPathComponent("js/app.js")
        try Data("console.log(2)".utf8).write(to: app)
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js")).status == 500)
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js")).status == 500)
        #expect(events.failures.count == 1 && events.failures[0].contains("js/app.js of demo sequence 1 does not match"), "\(events.failures)")
        // Restored: served again.
        try Data("console.log(1)".utf8).write(to: app)
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js")).status == 200)

        // A file added together with a line in the on-disk manifest.json: the signed manifest does not list it.
        let version = installed.root.deletingLastPathComponent()
        let evil = "alert('not signed')"
        try Data(evil.utf8).write(to: installed.root.appendingPathComponent("js/evil.js"))
        var manifest = installed.manifest
        manifest.files.append(.init(path: "js/evil.js", size: Int64(evil.utf8.count), sha256: SHA256Hex.digest(Data(evil.utf8))))
        manifest.files.sort { $0.path < $1.path }
        try manifest.canonicalBytes().write(to: version.appendingPathComponent("manifest.json"))
        #expect(store.installed("demo")?.manifest.files.count == 4, "the on-disk manifest now lists it")
        let fresh = PackageSchemeHandler(store: store)
        #expect(try await fresh.response(for: Request.request("app://demo/js/evil.js")).status == 404)
        #expect(try await fresh.response(for: Request.request("app://demo/index.html")).status == 200)
    }

    @Test func aVersionWhoseKeptArchiveIsAlteredOrMissingIsNotServed() async throws {
        let f = try PackageFixtures()
        let events = Events()
        let store = f.store(observer: { event in events.all.withLock { $0.append(event) } })
        let installed = try store.install(file: try f.pack(try f.site("s1", PackageFixtures.v1), "d1.zip", sequence: 1))
        let archive = installed.root.deletingLastPathComponent().appendingPathComponent("package.zip")
        var bytes = try Data(contentsOf: archive)
        bytes[40] ^= 1
        try bytes.write(to: archive)
        let response = try await PackageSchemeHandler(store: store).response(for: Request.request("app://demo/index.html"))
        let text = try await Request.text(response)
        #expect(response.status == 500 && text.contains("signature"), "\(text)")
        #expect(events.failures.count == 1)
        // Another store reading the same directory (another run) sees it too; a missing archive likewise.
        try FileManager.default.removeItem(at: archive)
        #expect(throws: PackageError.self) { try f.store().signedInstalled("demo") }
        // Reinstalling makes a new version directory, checked afresh.
        try store.remove("demo")
        try store.install(file: try f.pack(try f.site("s2", PackageFixtures.v2), "d2.zip", sequence: 2))
        #expect(try await PackageSchemeHandler(store: store).response(for: Request.request("app://demo/index.html")).status == 200)
    }

    @Test func anotherOriginsPageGets403ButTheAppAndItsPathMapDoNot() async throws {
        let f = try PackageFixtures()
        let store = f.store()
        try store.install(file: try f.pack(try f.site("s1", PackageFixtures.v1), "d1.zip", sequence: 1))
        let handler = PackageSchemeHandler(store: store, pathMap: ["https://h5.example/app.js": "app://demo/js/app.js"])
        let own = SchemePage(id: 1, url: "app://demo/index.html")
        let other = SchemePage(id: 2, url: "http://127.0.0.1:8000/page.html")
        // The app's own page and its subresources.
        #expect(try await handler.response(for: Request.request("app://demo/index.html", page: own)).status == 200)
        #expect(try await handler.response(for: Request.request("app://demo/css/site.css", page: own)).status == 200)
        // Another origin's <script>, <img>, <iframe> (the page is not the request), fetch (an Origin header).
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js", page: other)).status == 403)
        #expect(try await handler.response(for: Request.request("app://demo/index.html", page: other)).status == 403)
        #expect(try await handler.response(for: Request.request("app://demo/css/site.css", page: own,
                                                                headers: [("Origin", "http://127.0.0.1:8000")])).status == 403)
        // Another app is another origin.
        #expect(try await handler.response(for: Request.request("app://demo/css/site.css", page: SchemePage(id: 3, url: "app://shop/"))).status == 403)
        // A top-level navigation from anywhere opens the app.
        #expect(try await handler.response(for: Request.request("app://demo/index.html", page: SchemePage(id: 2, url: "app://demo/index.html"))).status == 200)
        // The path map lends exactly its mapped file to exactly its online origin.
        let online = SchemePage(id: 4, url: "https://h5.example/shop/index.html")
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js", page: online)).status == 200)
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js", page: online, headers: [("Origin", "https://h5.example")])).status == 200)
        #expect(try await handler.response(for: Request.request("app://demo/css/site.css", page: online)).status == 403)
        #expect(try await handler.response(for: Request.request("app://demo/js/app.js", page: other)).status == 403)
    }
}

/// The hot path does not hash again: one `stat` answers a file already checked, and any change to
/// it — even one that puts the modification time back — is hashed again.
@Suite struct FileDigestCacheTests {
    @Test func aCheckedFileIsHashedOnceUntilItChanges() throws {
        let f = try PackageFixtures()
        let file = f.path("a.js").path
        try Data("console.log(1)".utf8).write(to: URL(fileURLWithPath: file))
        let sha = SHA256Hex.digest(Data("console.log(1)".utf8))
        let cache = FileDigestCache()
        for _ in 0..<5 {
            guard case .matches = cache.check(file, size: 14, sha256: sha) else { Issue.record("not a match"); return }
        }
        #expect(cache.hashes.load(ordering: .relaxed) == 1)
        var info = stat()
        stat(file, &info)
        let fd = open(file, O_WRONLY)
        _ = "console.log(2)".withCString { write(fd, $0, 14) }
        close(fd)
        var times = [info.st_atim, info.st_mtim]
        utimensat(AT_FDCWD, file, &times, 0)  // the modification time put back; the change time moves on
        #expect(cache.check(file, size: 14, sha256: sha) == .differs(reason: "does not match the size (14 bytes) and SHA-256 its signed manifest lists", isNew: true))
        #expect(cache.check(file, size: 14, sha256: sha) == .differs(reason: "does not match the size (14 bytes) and SHA-256 its signed manifest lists", isNew: false))
        #expect(cache.hashes.load(ordering: .relaxed) == 2)
    }

    /// Checked, then written to before (or while) it is served: the body fails, so the page's load fails.
    @Test func aFileChangedAfterItsCheckFailsItsBody() async throws {
        let f = try PackageFixtures()
        let file = f.path("b.js").path
        try Data("console.log(1)".utf8).write(to: URL(fileURLWithPath: file))
        guard case .matches(let identity) = FileDigestCache().check(file, size: 14, sha256: SHA256Hex.digest(Data("console.log(1)".utf8))) else {
            Issue.record("not a match")
            return
        }
        var whole = Data()
        for try await chunk in UnchangedFileBody.stream(path: file, offset: 0, length: 14, checked: identity) { whole.append(chunk) }
        #expect(whole == Data("console.log(1)".utf8))
        try Data("console.log(2)".utf8).write(to: URL(fileURLWithPath: file))
        await #expect(throws: PackageError.self) {
            for try await _ in UnchangedFileBody.stream(path: file, offset: 0, length: 14, checked: identity) {}
        }
    }
}
