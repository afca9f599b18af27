import Foundation
import HybridShell
import Testing

@Suite("hybrid-run bridge flags, end to end")
struct BridgeCommandLineTests {
    @Test func demoAnswersFromSwiftAndClosesItself() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/demo/index.html", "--exit-after", "close", "--timeout", "20"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("CONSOLE LOG native bridge: hybrid.call(\"system.info\") answered from Swift: WebKitGTK \(WebContext.engineVersion) on Linux"))
        #expect(run.stderr.hasPrefix("hybrid-run: the page closed itself after "))
    }

    @Test func mockHandlersAnswerThePage() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/cli/bridge.html", "--handlers", "pages/fixtures/cli/mocks.json",
                                                "--print-events"]) { command in
            _ = await command.waitForLine(containing: "storage.set")
            kill(command.pid, SIGTERM)
        }
        #expect(run.status == 0)
        let console = run.stdoutLines.compactMap { try? JSONValue(parsing: $0) }.compactMap { $0["text"]?.stringValue }
        #expect(console.contains(#"device.info {"model":"kiosk-7","serial":42}"#))
        #expect(console.contains("payment.pay HANDLER_ERROR card declined"))
        #expect(console.contains(#"storage.set {"key":"k"}"#))
    }

    @Test func callsPageHandlersAndPrintsEachReplyAsJSON() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/cli/bridge.html", "--handlers", "pages/fixtures/cli/mocks.json",
                                                "--call", #"page.sum={"a":2,"b":40}"#, "--exit-after", "load", "--quiet",
                                                "--bridge-log", log])
        #expect(run.status == 0)
        #expect(run.stdoutLines == [#"{"call":"page.sum","ok":true,"result":42}"#])
        let entries = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        #expect(entries.contains { $0["kind"] == "hello" && $0["outcome"]?.stringValue?.hasPrefix("ready") == true })
        #expect(entries.contains { $0["kind"] == "call" && $0["handler"] == "device.info" && $0["outcome"] == "ok" && $0["latency_ms"] != nil })
        #expect(entries.contains { $0["kind"] == "call" && $0["handler"] == "payment.pay" && $0["outcome"] == "HANDLER_ERROR" })
        #expect(entries.contains { $0["direction"] == "out" && $0["handler"] == "page.sum" })
        #expect(entries.allSatisfy { $0["session"] != nil || $0["kind"] == "end" })
    }

    @Test func failingPageHandlerCallExitsWithCode2() async throws {
        let run = try await CommandLineRun.run(["--url", "pages/fixtures/cli/bridge.html", "--call", "page.fail", "--call", "page.missing",
                                                "--exit-after", "load", "--quiet"])
        #expect(run.status == 2)
        let lines = try run.stdoutLines.map { try JSONValue(parsing: $0) }
        #expect(lines.count == 2)
        #expect(lines.first?["error"]?["code"] == "HANDLER_ERROR")
        #expect(lines.first?["error"]?["message"]?.stringValue?.contains("the page refuses") == true)
        #expect(lines.last?["error"]?["code"] == "NOT_FOUND")
        #expect(run.stderr.contains("hybrid-run: error: the page handler page.fail failed: HANDLER_ERROR"))
    }

    @Test(arguments: [
        (["--handlers", "pages/fixtures/cli/missing.json"], "cannot read the handlers file pages/fixtures/cli/missing.json"),
        (["--handlers", "pages/fixtures/cli/bad-mocks.json"], #"pages/fixtures/cli/bad-mocks.json:3: "payment.pay": unknown error code "NOPE""#),
        (["--handlers", "pages/fixtures/cli/bridge.html"], "pages/fixtures/cli/bridge.html:1: unexpected character '<'"),
        (["--call", "=1"], "--call takes NAME=JSON"),
        (["--call", "page.sum={oops}"], "--call page.sum: the data is not valid JSON"),
        (["--allow-origin", "example.org"], "needs a scheme"),
        (["--allow-origin", "https://*.*.example.org"], "* may only stand for"),
        (["--allow-origin", "http://x:99999"], "invalid port"),
        (["--inject", "sometimes"], "--inject takes document-start or after-load"),
        (["--bridge-log", "/nonexistent-dir/log.jsonl"], "cannot write the bridge log /nonexistent-dir/log.jsonl"),
    ] as [([String], String)])
    func badBridgeFlagsExitWithCode4(arguments: [String], message: String) async throws {
        let run = try await CommandLineRun.run(["pages/fixtures/cli/bridge.html", "--exit-after", "load"] + arguments)
        #expect(run.status == 4)
        #expect(run.stderr.contains(message), "stderr was: \(run.stderr)")
    }
}
