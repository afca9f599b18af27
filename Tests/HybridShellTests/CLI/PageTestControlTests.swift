import Foundation
import HybridShell
@testable import hybrid_run
import Synchronization
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

extension PageTestCommandLineTests {
    /// Retries, workers, shards, grep, list, max-failures, screenshots and the report files of
    /// `hybrid-run test`, in real WebKit.
    @Suite("hybrid-run test: retries, workers, shards, filters, screenshots, reports")
    struct PageTestControlTests {
        static let root = "pages/fixtures/test/"

        /// A server for retry/index.html that answers its `attempt` requests with 1, 2, … .
        static func retryServer() async throws -> FixtureServer {
            let server = try await FixtureServer.start()
            let attempts = Mutex(0)
            server.route("/fixtures/test/retry/attempt") { _ in
                .text(String(attempts.withLock { count in count += 1; return count }))
            }
            return server
        }

        @Test func aTestThatPassesOnRetryIsReportedFlaky() async throws {
            let server = try await Self.retryServer(), fresh = try await Self.retryServer()
            defer { server.stop(); fresh.stop() }
            let page = server.url("fixtures/test/retry/index.html")
            let retried = try await PageTestRun.run([page, "--retries", "1", "--screenshot", "off", "--reporter", "junit:{output}/junit.xml"])
            defer { retried.cleanUp() }
            #expect(retried.status == 0, "stdout: \(retried.stdout)")
            // Issue 12 item 3: Surefire's element, with the first attempt's message and stack.
            let junit = try String(contentsOfFile: retried.output + "/junit.xml", encoding: .utf8)
            #expect(junit.contains(#"<flakyFailure message="flaky on purpose: attempt 1" type="AssertionError"><stackTrace>flaky on purpose: attempt 1"#),
                    "\(junit)")
            let test = try #require(retried.test(page, "passes on the second attempt"))
            #expect(test["flaky"] == true)
            #expect(test["attempts"] == 2)
            #expect(retried.summary["flaky"] == 1)
            let first = fresh.url("fixtures/test/retry/index.html")
            let once = try await PageTestRun.run([first, "--screenshot", "off"])
            defer { once.cleanUp() }
            #expect(once.status == 1)
            #expect(once.test(first, "passes on the second attempt")?["failures"]?[0]?["message"] == "flaky on purpose: attempt 1")
        }

        @Test func pagesSpreadOverTwoWorkersGiveTheSameResults() async throws {
            let pages = ["qunit/all-pass.html", "mocha/all-pass.html", "jasmine/all-pass.html", "hybrid/all-pass.html", "qunit/suite.html", "hybrid/suite.html"]
                .map { Self.root + $0 }
            let run = try await PageTestRun.run(pages + ["--workers", "2", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 1)
            #expect(Set(run.pages.compactMap { $0["worker"]?.intValue }) == [0, 1])
            #expect(run.pages.compactMap { $0["page"]?.stringValue } == pages.sorted(), "reports keep the sorted page order")
            #expect(run.counts() == ["passed": 15, "failed": 4, "skipped": 2, "todo": 1])
        }

        @Test func shardsSplitThePagesWithoutOverlapAndMergeBack() async throws {
            let directory = Self.root + "grep/"
            var seen: [String] = []
            var summaries: [TestRunSummary] = []
            var reports: [String] = []
            let directoryOfReports = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directoryOfReports, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directoryOfReports) }
            for (index, shard) in ["1/3", "2/3", "3/3"].enumerated() {
                let run = try await PageTestRun.run([directory, "--shard", shard])
                defer { run.cleanUp() }
                reports.append(directoryOfReports + "/shard-\(index + 1).json")
                try FileManager.default.copyItem(atPath: run.output + "/results.json", toPath: reports[index])
                #expect(run.status == 0, "shard \(shard): \(run.stderr)")
                seen += run.pages.compactMap { $0["page"]?.stringValue }
                let text = try String(contentsOfFile: run.output + "/results.json", encoding: .utf8)
                summaries.append(try TestReportMerge.decode(text))
            }
            #expect(seen.sorted() == ["grep/hybrid.html", "grep/jasmine.html", "grep/mocha.html", "grep/qunit.html"].map { Self.root + $0 })
            #expect(Set(seen).count == seen.count)
            let merged = TestReportMerge.merge(summaries)
            #expect(merged.pages.map(\.page) == seen.sorted())
            #expect(merged.exitStatus == .success)

            let junit = directoryOfReports + "/all.xml"
            let cli = try await CommandLineRun.run(["test", "--merge"] + reports + ["--reporter", "junit:\(junit)"])
            #expect(cli.status == 0, "stderr: \(cli.stderr)")
            #expect(cli.stdout == "hybrid-run: 16 passed, 0 failed, 0 skipped\n")
            #expect(try XMLDocument(contentsOf: URL(fileURLWithPath: junit)).nodes(forXPath: "//testcase").count == 16)
        }

        /// Issue 12 item 2: merging the same shard twice would count it twice; refused, naming the file.
        @Test func mergeRefusesTheSameShardTwice() async throws {
            let run = try await PageTestRun.run([Self.root + "hybrid/all-pass.html", "--shard", "1/2"])
            defer { run.cleanUp() }
            let first = run.output + "/results.json", copy = run.output + "/copy.json"
            try FileManager.default.copyItem(atPath: first, toPath: copy)
            let twice = try await CommandLineRun.run(["test", "--merge", first, copy])
            #expect(twice.status == 4)
            #expect(twice.stderr == "hybrid-run: error: \(copy) is shard 1/2 again (already merged from \(first)); merge each shard once\n",
                    "stderr: \(twice.stderr)")
        }

        @Test func mergeRefusesWhatIsNotAReport() async throws {
            let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json").path
            try #"{"version": 1, "tool": "hybrid-run", "pages": [{"page": 3}]}"#.write(toFile: bad, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: bad) }
            let invalid = try await CommandLineRun.run(["test", "--merge", bad])
            #expect(invalid.status == 4)
            #expect(invalid.stderr.hasPrefix("hybrid-run: error: \(bad): invalid test report: "), "stderr: \(invalid.stderr)")
            let missing = try await CommandLineRun.run(["test", "--merge", "/nonexistent/shard.json"])
            #expect(missing.status == 4)
            #expect(missing.stderr == "hybrid-run: error: cannot read the report /nonexistent/shard.json: no such file\n")
            let both = try await CommandLineRun.run(["test", "--merge", bad, "--list"])
            #expect(both.status == 4)
        }

        @Test(arguments: ["qunit", "mocha", "jasmine", "hybrid"])
        func grepAndGrepInvertSelectTestsByFullName(framework: String) async throws {
            let page = Self.root + "grep/\(framework).html"
            let only = try await PageTestRun.run([page, "--grep", "checkout"])
            defer { only.cleanUp() }
            #expect(only.status == 0, "stdout: \(only.stdout)")
            let ran = only.page(page)?["tests"]?.arrayValue?.filter { $0["status"] == "passed" }.compactMap { $0["fullName"]?.stringValue }
            #expect(ran == ["checkout › pays by card", "checkout › pays by invoice"])
            let others = try await PageTestRun.run([page, "--grep-invert", "/INVOICE/i"])
            defer { others.cleanUp() }
            let rest = others.page(page)?["tests"]?.arrayValue?.filter { $0["status"] == "passed" }.compactMap { $0["fullName"]?.stringValue }
            #expect(rest == ["cart › adds an item", "cart › removes an item", "checkout › pays by card"])
        }

        @Test func grepThatMatchesNothingIsNoTests() async throws {
            let run = try await PageTestRun.run([Self.root + "grep/qunit.html", "--grep", "nothing like this"])
            defer { run.cleanUp() }
            #expect(run.status == 5, "stdout: \(run.stdout)")
        }

        @Test func listPrintsTestNamesWithoutRunningThem() async throws {
            let run = try await PageTestRun.run([Self.root + "grep/", Self.root + "retry/index.html", "--list"], jsonReport: false)
            defer { run.cleanUp() }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.command.stdoutLines.contains("pages/fixtures/test/grep/mocha.html › checkout › pays by invoice"))
            #expect(run.command.stdoutLines.contains("pages/fixtures/test/retry/index.html › passes on the second attempt"))
            #expect(run.command.stdoutLines.last == "hybrid-run: 17 tests in 5 pages")
            #expect(!run.stdout.contains("attempt 1"), "listing must not run the flaky test")
        }

        @Test func maxFailuresStopsTheRunAndReportsWhatDidNotRun() async throws {
            let pages = ["hybrid/suite.html", "qunit/suite.html", "jasmine/suite.html"].map { Self.root + $0 }
            let run = try await PageTestRun.run(pages + ["--max-failures", "1", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 1, "stdout: \(run.stdout)")
            #expect(run.report["interruption"]?["reason"] != nil || run.report["interruption"]?.isNull == false)
            let cancelled = run.pages.filter { $0["outcome"] == "cancelled" }.count
            #expect(cancelled >= 1, "pages: \(run.pages.map { $0["outcome"] ?? .null })")
            #expect(run.stderr.contains("--max-failures"), "stderr: \(run.stderr)")
            // Issue 12 item 2: the cancelled pages are in the summary line as in every report.
            #expect(run.summaryLine?.hasSuffix("; \(cancelled) page\(cancelled == 1 ? "" : "s") cancelled") == true, "\(run.summaryLine ?? "")")
            #expect(run.summary["pagesCancelled"]?.intValue == cancelled)
        }

        @Test func screenshotsOnlyOnFailureByDefaultAsPNGFilesNamedInTheReports() async throws {
            let page = Self.root + "hybrid/suite.html"
            let run = try await PageTestRun.run([page])
            defer { run.cleanUp() }
            let failed = run.page(page)?["tests"]?.arrayValue?.filter { $0["status"] == "failed" } ?? []
            #expect(failed.count == 2)
            for test in failed {
                let path = try #require(test["screenshot"]?.stringValue, "no screenshot for \(test["fullName"] ?? .null)")
                #expect(path.hasPrefix(run.output + "/screenshots/"))
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG: \(path)")
            }
            #expect(run.test(page, "formats a price")?["screenshot"]?.isNull == true)
            let off = try await PageTestRun.run([page, "--screenshot", "off"])
            defer { off.cleanUp() }
            #expect(!FileManager.default.fileExists(atPath: off.output + "/screenshots"))
            let every = try await PageTestRun.run([Self.root + "qunit/all-pass.html", "--screenshot", "on"])
            defer { every.cleanUp() }
            let pictured = every.pages.flatMap { $0["tests"]?.arrayValue ?? [] }.filter { $0["screenshot"]?.stringValue != nil }
            #expect(pictured.count == 2)
        }

        @Test func tapAndJUnitFilesAreWellFormed() async throws {
            let pages = [Self.root + "qunit/suite.html", Self.root + "no-framework.html"]
            let run = try await PageTestRun.run(pages + ["--reporter", "tap:{output}/results.tap", "--reporter", "junit:{output}/junit.xml", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 2)
            let tap = try String(contentsOfFile: run.output + "/results.tap", encoding: .utf8)
            let lines = tap.split(separator: "\n").map(String.init)
            #expect(lines.first == "TAP version 13")
            #expect(lines.contains { $0.hasPrefix("not ok ") && $0.contains("math › subtracts wrongly") })
            #expect(lines.contains { $0.contains("math › divides by zero") && $0.contains("# SKIP") })
            #expect(lines.contains { $0.hasPrefix("Bail out!") || $0.hasPrefix("not ok") && $0.contains("no-framework.html") })
            #expect(lines.contains { $0.range(of: #"^1\.\.\d+$"#, options: .regularExpression) != nil })

            let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: run.output + "/junit.xml"))
            let suites = try xml.nodes(forXPath: "//testsuite")
            #expect(suites.count == 2)
            let cases = try xml.nodes(forXPath: "//testsuite/testcase")
            #expect(cases.count >= 6)
            #expect(try xml.nodes(forXPath: "//testcase/failure").count == 1, "the assertion is a failure")
            #expect(try xml.nodes(forXPath: "//testcase/error").count >= 2, "the thrown test and the page that could not run are errors")
            #expect(try xml.nodes(forXPath: "//testcase/skipped").count == 1)
            #expect(try xml.nodes(forXPath: "//system-out").contains { $0.stringValue?.contains("adding 1 + 1") == true })
        }

        @Test func nastyStringsInFailuresSurviveByteExact() async throws {
            let server = try await FixtureServer.start()
            defer { server.stop() }
            let nasty = "quote \" backslash \\ line\u{2028}para\u{2029} emoji 🧪 <tag> & ]]>"
            let literal = try #require(String(data: JSONEncoder().encode(nasty), encoding: .utf8))
            server.route("/nasty.html") { _ in
                .text("""
                    <!DOCTYPE html><meta charset="utf-8"><script type="application/json" id="nasty">\(literal.replacingOccurrences(of: "<", with: "\\u003c"))</script><script>
                    var nasty = JSON.parse(document.getElementById('nasty').textContent);
                    hybrid.test(nasty, function () { console.log(nasty); hybrid.assert.equal(nasty + '!', nasty, nasty); });
                    hybrid.test.done();
                    </script>
                    """, type: "text/html; charset=utf-8")
            }
            let page = server.url("nasty.html")
            let run = try await PageTestRun.run([page, "--reporter", "junit:{output}/junit.xml", "--reporter", "tap:{output}/results.tap", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 1)
            let test = try #require(run.test(page, nasty))
            #expect(test["failures"]?[0]?["message"]?.stringValue == nasty)
            let expected = try #require(test["failures"]?[0]?["expected"]?.stringValue)
            #expect(try JSONValue(parsing: expected) == .string(nasty))
            #expect(test["console"]?[0]?["text"]?.stringValue == nasty)
            let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: run.output + "/junit.xml"))
            #expect(try xml.nodes(forXPath: "//testcase").first.flatMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue } == nasty)
            let tap = try String(contentsOfFile: run.output + "/results.tap", encoding: .utf8)
            #expect(tap.contains("🧪"))
        }
    }
}
