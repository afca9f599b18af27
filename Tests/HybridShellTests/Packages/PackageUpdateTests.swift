import Foundation
import HybridShellTestSupport
import Synchronization
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Updates against a real HTTP server on loopback: full, incremental, mix-and-match fallback,
/// preset, rollback, and downloads that are too long or cut.
@Suite struct PackageUpdateTests {
    /// Serves a folder's files with Range support; `tamper` may rewrite a response.
    static func serve(_ folder: URL, on server: FixtureServer, names: [String],
                      tamper: (@Sendable (String, FixtureServer.Response) -> FixtureServer.Response)? = nil) {
        for name in names {
            server.route("/pkg/" + name) { request in
                guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return .init(status: 404) }
                var response = FixtureServer.Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: data)
                if let range = request.headers["range"], range.hasPrefix("bytes="), let start = Int(range.dropFirst(6).dropLast()), start < data.count {
                    response = .init(status: 206, headers: ["Content-Range": "bytes \(start)-\(data.count - 1)/\(data.count)"], body: data.dropFirst(start))
                }
                return tamper?(name, response) ?? response
            }
        }
    }

    struct Setup {
        let fixtures: PackageFixtures
        let server: FixtureServer
        let base: URL
        let v1: URL
    }

    /// v1 and v2 packed, v2 full + incremental listed in a signed index, served.
    static func setup(tamper: (@Sendable (String, FixtureServer.Response) -> FixtureServer.Response)? = nil) async throws -> Setup {
        let f = try PackageFixtures()
        let out = f.path("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let v1 = try f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1)
        let v2 = try f.pack(try f.site("v2", PackageFixtures.v2), "out/v2.zip", sequence: 2)
        let inc = try f.pack(try f.site("v2", PackageFixtures.v2), "out/v2-from-1.zip", sequence: 2, base: v1)
        let (index, signature) = try PackageIndex.make(packages: [v2, inc], expires: nil, key: f.key)
        try index.write(to: out.appendingPathComponent("index.json"))
        try signature.write(to: out.appendingPathComponent("index.json.sig"))
        let server = try await FixtureServer.start()
        serve(out, on: server, names: ["index.json", "index.json.sig", "v2.zip", "v2-from-1.zip"], tamper: tamper)
        return Setup(fixtures: f, server: server, base: try #require(URL(string: server.url("pkg/"))), v1: v1)
    }

    @Test func fullUpdateInstallsAndSecondCheckFindsNothingNew() async throws {
        let s = try await Self.setup()
        defer { s.server.stop() }
        let events = Mutex<[PackageEvent]>([])
        let store = s.fixtures.store(observer: { event in events.withLock { $0.append(event) } })
        let results = try await store.update(from: s.base)
        guard case .installed(let installed, let incremental)? = results.first?.outcome else { Issue.record("\(results)"); return }
        #expect(!incremental && installed.sequence == 2 && treeVerifies(installed))
        var times = [Duration]()
        for _ in 0..<10 {
            let started = ContinuousClock.now
            let again = try await store.update(from: s.base)
            times.append(ContinuousClock.now - started)
            #expect(again.first?.outcome == .upToDate(sequence: 2))
        }
        let median = times.sorted()[times.count / 2]
        print("nothing-new update check in process, median of 10: \(median)")
        #expect(median < .seconds(5))
        #expect(events.withLock { $0 }.contains(.installed(appID: "demo", version: "1.2.0", sequence: 2)))
    }

    /// Verifying and unpacking would stall every page if they ran on the main loop, which is where
    /// a task that prefers it (`MainLoop.run`'s) runs nonisolated code.
    @Test func updateFromATaskThatPrefersTheMainLoopRunsOnSwiftsPool() async throws {
        let s = try await Self.setup()
        defer { s.server.stop() }
        let onLoop = Mutex<[Bool]>([])
        let store = s.fixtures.store(observer: { _ in onLoop.withLock { $0.append(EngineActor.isCurrentThread) } })
        let base = s.base
        let results = try await Task(executorPreference: EngineActor.taskExecutor) { try await store.update(from: base) }.value
        guard case .installed? = results.first?.outcome else { Issue.record("\(results)"); return }
        let seen = onLoop.withLock { $0 }
        #expect(!seen.isEmpty && !seen.contains(true), "observer calls on the loop thread: \(seen)")
    }

    @Test func incrementalUpdateAppliesOnTopOfTheActiveVersion() async throws {
        let s = try await Self.setup()
        defer { s.server.stop() }
        let store = s.fixtures.store()
        try store.install(file: s.v1)
        let results = try await store.update(from: s.base)
        guard case .installed(let installed, let incremental)? = results.first?.outcome else { Issue.record("\(results)"); return }
        #expect(incremental && installed.sequence == 2 && installed.previousSequence == 1 && treeVerifies(installed))
        #expect(!FileManager.default.fileExists(atPath: installed.root.path + "/js/app.js"))
        #expect(s.server.requests.contains { $0.path == "/pkg/v2-from-1.zip" })
        #expect(!s.server.requests.contains { $0.path == "/pkg/v2.zip" })
    }

    @Test func mixAndMatchIncrementalFallsBackToTheFullPackage() async throws {
        let s = try await Self.setup()
        defer { s.server.stop() }
        let f = s.fixtures
        let store = f.store()
        // A sequence-1 tree other than the one the incremental was made against.
        try store.install(file: f.pack(try f.site("other", ["index.html": "<h1>other</h1>"]), "other.zip", sequence: 1))
        let results = try await store.update(from: s.base)
        guard case .installed(let installed, let incremental)? = results.first?.outcome else { Issue.record("\(results)"); return }
        #expect(!incremental && installed.sequence == 2 && treeVerifies(installed))
        #expect(s.server.requests.contains { $0.path == "/pkg/v2.zip" })
    }

    @Test func incrementalWhoseBaseDiffersIsRefusedOnInstall() throws {
        let f = try PackageFixtures()
        let v1 = try f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1)
        let inc = try f.pack(try f.site("v2", PackageFixtures.v2), "inc.zip", sequence: 2, base: v1)
        let store = f.store()
        #expect(throws: PackageError.baseMismatch(appID: "demo", reason: "nothing is installed to apply it to")) { try store.install(file: inc) }
        try store.install(file: f.pack(try f.site("other", ["index.html": "x"]), "other.zip", sequence: 1))
        #expect(throws: PackageError.baseMismatch(appID: "demo", reason: "the active tree's hash differs from the base it was made for")) {
            try store.install(file: inc)
        }
        #expect(store.installed("demo")?.manifest.files.map(\.path) == ["index.html"])
    }

    @Test func downloadLongerThanTheSignedSizeIsRefused() async throws {
        let s = try await Self.setup { name, response in
            guard name == "v2.zip" else { return response }
            var longer = response
            longer.body += Data(repeating: 0x41, count: 4096)
            return longer
        }
        defer { s.server.stop() }
        let events = Mutex<[PackageEvent]>([])
        let store = s.fixtures.store(observer: { event in events.withLock { $0.append(event) } })
        let results = try await store.update(from: s.base)
        guard case .failed(.download(_, let reason))? = results.first?.outcome else { Issue.record("\(results)"); return }
        #expect(reason.contains("more than the signed"))
        #expect(events.withLock { $0 }.filter { if case .failed = $0 { true } else { false } }.count == 1)
        #expect(store.installed("demo") == nil)
    }

    @Test func cutConnectionFailsThenTheNextUpdateResumes() async throws {
        let cuts = Mutex(0)
        let s = try await Self.setup { name, response in
            guard name == "v2.zip", cuts.withLock({ $0 += 1; return $0 }) == 1 else { return response }
            var cut = response
            cut.headers["Content-Length"] = String(response.body.count)
            cut.body = response.body.prefix(response.body.count / 2)
            return cut
        }
        defer { s.server.stop() }
        let store = s.fixtures.store()
        let first = try await store.update(from: s.base)
        guard case .failed(.download)? = first.first?.outcome else { Issue.record("\(first)"); return }
        #expect(store.installed("demo") == nil)
        let second = try await store.update(from: s.base)
        guard case .installed(let installed, _)? = second.first?.outcome else { Issue.record("\(second)"); return }
        #expect(installed.sequence == 2 && treeVerifies(installed))
        #expect(s.server.requests.contains { $0.path == "/pkg/v2.zip" && ($0.headers["range"] ?? "").hasPrefix("bytes=") })
    }

    @Test func tamperedIndexIsRefusedAndReported() async throws {
        let s = try await Self.setup { name, response in
            guard name == "index.json" else { return response }
            var changed = response
            changed.body = Data(String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: "\"enable\" : true", with: "\"enable\" : false").utf8)
            return changed
        }
        defer { s.server.stop() }
        s.server.route("/report") { _ in .text("ok") }
        let store = s.fixtures.store()
        await #expect(throws: PackageError.badSignature("the signed bytes were altered (key \(s.fixtures.key.publicKey.keyID))")) {
            try await store.update(from: s.base, report: URL(string: s.server.url("report")))
        }
        let report = try #require(s.server.requests.first { $0.path == "/report" })
        let body = try JSONDecoder().decode(PackageFailureReport.self, from: report.body)
        #expect(body.reason.contains("signature does not verify"))
    }

    @Test func expiredIndexIsRefused() async throws {
        let f = try PackageFixtures()
        let v1 = try f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1)
        let (index, signature) = try PackageIndex.make(packages: [v1], expires: Date(timeIntervalSince1970: 1_700_000_000), key: f.key)
        #expect(throws: PackageError.expired(what: "the update index", expires: "2023-11-14T22:13:20Z")) {
            try PackageIndex.verify(index, signature: signature, trust: f.trust, now: Date())
        }
        #expect(throws: PackageError.untrustedKey(keyID: f.key.publicKey.keyID)) {
            try PackageIndex.verify(index, signature: signature, trust: try TrustedKeys([f.otherKey.publicKey]), now: .distantPast)
        }
    }

    @Test func rollbackAttackIsRefusedAndUserRollbackKeepsTheTrustedSequence() throws {
        let f = try PackageFixtures()
        let v1 = try f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1)
        let v2 = try f.pack(try f.site("v2", PackageFixtures.v2), "v2.zip", sequence: 2)
        let store = f.store()
        try store.install(file: v1)
        try store.install(file: v2)
        #expect(throws: PackageError.rollback(appID: "demo", offered: 1, trusted: 2)) { try store.install(file: v1) }
        #expect(throws: PackageError.alreadyInstalled(appID: "demo", sequence: 2)) { try store.install(file: v2) }
        let back = try store.rollback("demo")
        #expect(back.sequence == 1 && back.trustedSequence == 2 && back.previousSequence == nil && treeVerifies(back))
        #expect(throws: PackageError.notInstalled("demo has no previous version to roll back to")) { try store.rollback("demo") }
        #expect(throws: PackageError.alreadyInstalled(appID: "demo", sequence: 2)) { try store.install(file: v2) }
        try store.remove("demo")
        #expect(store.list().isEmpty)
        #expect(throws: PackageError.notInstalled("demo is not installed")) { try store.remove("demo") }
    }

    @Test func presetIsInstalledOncePerAppVersionWhenNewer() throws {
        let f = try PackageFixtures()
        let v1 = try f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1)
        let v2 = try f.pack(try f.site("v2", PackageFixtures.v2), "v2.zip", sequence: 2)
        let store = f.store()
        guard case .installed(let first) = try store.installPreset(file: v1, appVersion: "3.0") else { Issue.record("not installed"); return }
        #expect(first.sequence == 1)
        #expect(try store.installPreset(file: v2, appVersion: "3.0") == .alreadyApplied)
        try store.install(file: v2)
        #expect(try store.installPreset(file: v1, appVersion: "3.1") == .notNewer(sequence: 2))
    }

    @Test func recoveryCleansAfterAnInterruptedInstall() throws {
        let f = try PackageFixtures()
        let store = f.store()
        try store.install(file: f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1))
        let app = store.appPath("demo")
        // What a kill can leave: staging junk, a renamed-in version no link names, a half-made link.
        try FileManager.default.createDirectory(atPath: store.stagingPath + "/demo-2-1/files", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: app + "/versions/2/files", withIntermediateDirectories: true)
        symlink("versions/2", app + "/current.new")
        store.recover()
        #expect(StoreFiles.contents(store.stagingPath).isEmpty)
        #expect(StoreFiles.contents(app + "/versions") == ["1"])
        #expect(!StoreFiles.exists(app + "/current.new"))
        // Killed after the switch, before the trusted sequence was written: recovery writes it.
        try store.install(file: f.pack(try f.site("v2", PackageFixtures.v2), "v2.zip", sequence: 2))
        try StoreFiles.writeAtomically(Data("{\"trustedSequence\":1}".utf8), to: app + "/state.json")
        store.recover()
        #expect(store.readTrustedSequence("demo") == 2)
    }
}
