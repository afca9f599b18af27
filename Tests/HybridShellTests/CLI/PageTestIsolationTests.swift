import Foundation
import HybridShell
import Testing

extension PageTestCommandLineTests {
    /// Issue 12, item 1: a page that leaves localStorage, sessionStorage, cookies, IndexedDB,
    /// `window.name` and history behind, and expects none of it, passes whatever ran before it —
    /// in either order, on 1 or 2 workers, in every shard. `--shared-state` trades that for speed.
    @Suite("hybrid-run test: every page starts as if it were the first")
    struct PageTestIsolationTests {
        static let directory = "pages/fixtures/test/isolation/"

        /// A server whose pages /iso/1.html … /iso/4.html are a.html and b.html alternately, in
        /// `order` ("ab": 1 is a; "ba": 1 is b), over HTTP so that cookies count too.
        static func server(order: String) async throws -> FixtureServer {
            let server = try await FixtureServer.start()
            let leak = try String(contentsOfFile: directory + "leak.js", encoding: .utf8)
            server.route("/iso/leak.js") { _ in .text(leak, type: "text/javascript") }
            let names = order == "ab" ? ["a", "b"] : ["b", "a"]
            for number in 1...4 {
                let page = try String(contentsOfFile: directory + names[(number - 1) % 2] + ".html", encoding: .utf8)
                server.route("/iso/\(number).html") { _ in .text(page, type: "text/html; charset=utf-8") }
            }
            return server
        }

        static func pages(_ server: FixtureServer) -> [String] {
            (1...4).map { server.url("iso/\($0).html") }
        }

        @Test(arguments: [
            ("ab", 1, nil), ("ba", 1, nil), ("ab", 2, nil), ("ba", 2, nil),
            ("ab", 1, "1/2"), ("ba", 1, "2/2"), ("ab", 2, "2/2"),
        ] as [(String, Int, String?)])
        func leakingPagesPassInEveryOrderWorkerCountAndShard(order: String, workers: Int, shard: String?) async throws {
            let server = try await Self.server(order: order)
            defer { server.stop() }
            let run = try await PageTestRun.run(Self.pages(server) + ["--workers", String(workers), "--screenshot", "off"]
                                                + (shard.map { ["--shard", $0] } ?? []))
            defer { run.cleanUp() }
            let pageCount = shard == nil ? 4 : 2
            #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
            #expect(run.pages.count == pageCount)
            #expect(run.counts() == ["passed": 9 * pageCount, "failed": 0, "skipped": 0, "todo": 0], "failed: \(run.failures)")
        }

        @Test func fileURLPagesAreIsolatedToo() async throws {
            let run = try await PageTestRun.run([Self.directory + "a.html", Self.directory + "b.html", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 0, "stdout: \(run.stdout)")
            #expect(run.counts()["passed"] == 18)
        }

        /// The opt-out really shares: the second page sees what the first left (the reason the
        /// default is isolated), so this also shows the fixture can fail.
        @Test func sharedStateLetsPagesSeeWhatEarlierPagesLeft() async throws {
            let server = try await Self.server(order: "ab")
            defer { server.stop() }
            let run = try await PageTestRun.run(Array(Self.pages(server).prefix(2)) + ["--shared-state", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 1, "stdout: \(run.stdout)")
            let second = Self.pages(server)[1]
            for leaked in ["starts with empty localStorage", "starts with empty sessionStorage", "starts without cookies",
                           "starts without IndexedDB databases", "starts with an empty window.name", "starts with a short history",
                           "starts without what the last page wrote as it went away"] {
                #expect(run.test(second, leaked)?["status"] == "failed", "\(leaked) did not see the leak")
            }
        }
    }
}
