import Foundation
import HybridShellTestSupport
import Synchronization
import Testing
@testable import HybridShell

/// The update manager for pages in real WebKit: a page of an installed package, a loopback server
/// offering a signed index, `hybrid.updates` and `wx.getUpdateManager()`, as `hybrid-run --package
/// --update-url --modules updates` sets them up (``PackageRun`` + ``ModuleHost/builtins``).
@Suite("Update manager for pages (hybrid.updates, wx.getUpdateManager) in real WebKit")
@EngineActor
struct PackageUpdatesWebKitTests {
    /// The entry page reports its first painted frame after an apply in its title.
    static func site(_ version: String) -> [String: String] {
        ["index.html": """
            <!doctype html><h1>v\(version)</h1><script>
            const t0 = sessionStorage.getItem('applied');
            if (t0) requestAnimationFrame(() => requestAnimationFrame(() => { document.title = 'painted ' + (Date.now() - Number(t0)); }));
            </script>
            """]
    }

    /// A store with v1 of `demo` installed, a server whose index offers what `offer` says, a run.
    @EngineActor
    final class Setup {
        let fixtures: PackageFixtures
        let server: FixtureServer
        /// What the server answers, changed by the test while it runs.
        final class Served: Sendable {
            let offer = Mutex<(index: Data, signature: Data)?>(nil)
            let files = Mutex<[String: Data]>([:])
            let cut = Mutex(false)
        }
        let served = Served()
        var run: PackageRun!
        var manager: PageManager!
        var host: ModuleHost!

        init() async throws {
            fixtures = try PackageFixtures()
            server = try await FixtureServer.start()
            let served = served
            for name in ["index.json", "index.json.sig"] {
                server.route("/pkg/" + name) { _ in
                    guard let current = served.offer.withLock({ $0 }) else { return .init(status: 404) }
                    return .init(status: 200, body: name == "index.json" ? current.index : current.signature)
                }
            }
            for name in ["v1.zip", "v2.zip"] {
                server.route("/pkg/" + name) { _ in
                    guard let data = served.files.withLock({ $0[name] }) else { return .init(status: 404) }
                    guard served.cut.withLock({ $0 }) else { return .init(status: 200, body: data) }
                    // The connection ends half-way through the announced length.
                    return .init(status: 200, headers: ["Content-Length": String(data.count)], body: data.prefix(data.count / 2))
                }
            }
        }

        /// Offers `package` (signed with `key`, default the trusted one) in the index.
        func offer(_ package: URL, key: PackageSigningKey? = nil) throws {
            served.files.withLock { $0[package.lastPathComponent] = try? Data(contentsOf: package) }
            let made = try PackageIndex.make(packages: [package], expires: nil, key: key ?? fixtures.key)
            served.offer.withLock { $0 = made }
        }

        func start() async throws -> Page {
            let f = fixtures
            let v1 = try f.pack(try f.site("v1", PackageUpdatesWebKitTests.site("1")), "v1.zip", sequence: 1)
            try f.store().install(file: v1)
            try offer(v1)
            let keyFile = f.path("release.pub")
            try Data((f.key.publicKey.fileText + "\n").utf8).write(to: keyFile)
            var serving = PackageServing()
            serving.package = "demo"
            serving.trustedKeys = [keyFile.path]
            serving.updateURL = try #require(URL(string: server.url("pkg/")))
            serving.updateInterval = .zero
            var shell = ShellConfiguration()
            shell.poolSize = 0
            shell.storage = .persistent(directory: f.path("data").path)
            shell.modules.enabled = [.updates]
            var route = WebRoute(try PackageServing.rootURL(of: "demo"))
            run = try #require(try PackageRun.prepare(serving, shell: &shell, route: &route))
            route = try await run.start(route: route)
            manager = try PageManager(configuration: shell)
            var options = ModuleHost.BuiltinOptions()
            options.updates = run.updates
            host = try ModuleHost.builtins(shell.modules, manager: manager, openedURL: try route.request().url,
                                           dataDirectory: f.path("data").path, options: options)
            let page = try manager.open(route)
            let ready = Handoff<Bool>()
            page.bridge.observe { event in if case .ready = event { ready.fulfill(true) } }
            _ = try await ready.value(timeout: .seconds(30), "the bridge of the package's page")
            return page
        }

        func close() async {
            run?.updates?.stop()
            await manager?.closeAll()
            run?.finish()
            server.stop()
        }
    }

    @Test func aPageGetsAvailableThenReadyAndApplyShowsTheNewVersion() async throws {
        let s = try await Setup()
        let page = try await s.start()
        defer { Task { await s.close() } }
        #expect(try await page.run("return document.querySelector('h1').textContent") == "v1")
        try await page.run("""
            window.seen = [];
            hybrid.updates.on('available', status => seen.push('available ' + status.hasUpdate));
            hybrid.updates.on('ready', value => seen.push('ready ' + value.sequence));
            const manager = wx.getUpdateManager();
            manager.onCheckForUpdate(result => seen.push('wx check ' + result.hasUpdate));
            manager.onUpdateReady(() => seen.push('wx ready'));
            """)
        // Nothing new yet (the index offers v1): the check answers fast, and says so.
        let nothing = try await page.run("""
            const times = [];
            let last;
            for (let i = 0; i < 10; i++) { const t = performance.now(); last = await hybrid.updates.check(); times.push(performance.now() - t); }
            times.sort((a, b) => a - b);
            return {median: times[5], hasUpdate: last.hasUpdate, ready: last.ready}
            """)
        print("updates: 'nothing new' check from the page (hybrid.updates.check), median of 10: \(nothing["median"]?.doubleValue ?? -1) ms")
        #expect(nothing["hasUpdate"] == false && nothing["ready"] == false)
        #expect((nothing["median"]?.doubleValue ?? .infinity) < 1000)

        let f = s.fixtures
        try s.offer(try f.pack(try f.site("v2", Self.site("2")), "v2.zip", sequence: 2))
        let checked = try await page.run("return await hybrid.updates.check()")
        #expect(checked["hasUpdate"] == true, "\(checked)")
        let ready = try await page.run("return await new Promise(resolve => hybrid.updates.on('ready', resolve))")
        #expect(ready["sequence"] == 2 && ready["version"] == "1.2.0", "\(ready)")
        let seen = try await page.run("return seen").arrayValue?.compactMap(\.stringValue) ?? []
        #expect(seen.contains("available true") && seen.contains("ready 2") && seen.contains("wx check true") && seen.contains("wx ready"), "\(seen)")
        #expect(seen.firstIndex(of: "available true")! < seen.firstIndex(of: "ready 2")!, "\(seen)")
        #expect(try await page.run("return document.querySelector('h1').textContent") == "v1", "installed, not shown until applied")

        let painted = Handoff<String>()
        page.view.observe { event in
            if case .titleChanged(let title) = event, title.hasPrefix("painted ") { painted.fulfill(title) }
        }
        try await page.run("sessionStorage.setItem('applied', String(Date.now())); await hybrid.updates.apply()")
        let title = try await painted.value(timeout: .seconds(30), "the new version's first paint")
        print("updates: apply() to the new version's first paint: \(title.dropFirst(8)) ms")
        #expect(try await page.run("return document.querySelector('h1').textContent") == "v2")
        let after = try await page.run("return await hybrid.updates.status()")
        #expect(after["ready"] == false && after["hasUpdate"] == false, "\(after)")
    }

    @Test func anIndexSignedByAnUnknownKeyFailsWithItsReasonAndInstallsNothing() async throws {
        let s = try await Setup()
        let page = try await s.start()
        defer { Task { await s.close() } }
        let f = s.fixtures
        try s.offer(try f.pack(try f.site("v2", Self.site("2")), "v2.zip", sequence: 2, key: f.otherKey), key: f.otherKey)
        let failed = try await page.run("""
            const failed = new Promise(resolve => hybrid.updates.on('failed', resolve));
            const status = await hybrid.updates.check();
            return {status, failed: await failed}
            """)
        let reason = failed["failed"]?["reason"]?.stringValue ?? ""
        #expect(reason.hasPrefix("the update index: signed by key") && reason.hasSuffix("which is not a trusted key"), "\(failed)")
        #expect(failed["status"]?["hasUpdate"] == false)
        #expect(s.run.store.installed("demo")?.sequence == 1)
    }

    @Test func aDownloadCutHalfWayFailsAndNothingIsHalfInstalled() async throws {
        let s = try await Setup()
        let page = try await s.start()
        defer { Task { await s.close() } }
        let f = s.fixtures
        s.served.cut.withLock { $0 = true }
        try s.offer(try f.pack(try f.site("v2", Self.site("2")), "v2.zip", sequence: 2))
        let failed = try await page.run("""
            const failed = new Promise(resolve => hybrid.updates.on('failed', resolve));
            const manager = wx.getUpdateManager();
            const wxFailed = new Promise(resolve => manager.onUpdateFailed(resolve));
            const status = await hybrid.updates.check();
            return {status, failed: await failed, wx: await wxFailed}
            """)
        #expect(failed["status"]?["hasUpdate"] == true, "\(failed)")
        let reason = failed["failed"]?["reason"]?.stringValue ?? ""
        #expect(reason.contains("v2.zip"), "\(failed)")
        #expect(failed["wx"]?["errMsg"]?.stringValue?.hasPrefix("updateManager:fail ") == true, "\(failed)")
        #expect(s.run.store.installed("demo")?.sequence == 1)
        let apply = try await page.hybridApply()
        #expect(apply == "HANDLER_ERROR notReady", "nothing to apply")
        let staging = (try? FileManager.default.contentsOfDirectory(atPath: f.path("data/packages/staging").path)) ?? []
        #expect(staging.isEmpty, "\(staging)")
    }
}

extension Page {
    /// `hybrid.updates.apply()`'s error as "CODE reason", or "ok".
    fileprivate func hybridApply() async throws -> String {
        try await run("""
            return await hybrid.updates.apply().then(() => 'ok', e => e.code + ' ' + (e.details && e.details.reason))
            """).stringValue ?? ""
    }
}
