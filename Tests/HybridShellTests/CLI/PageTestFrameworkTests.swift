import Foundation
import HybridShell
import Testing

extension PageTestCommandLineTests {
    /// Debian's QUnit 1.23, Mocha 10 + chai and Jasmine 4 (built into pages/vendor by `make vendor`)
    /// and our own `hybrid.test`, run by `hybrid-run test` in real WebKit, with the exact counts.
    @Suite("hybrid-run test: real frameworks in real WebKit")
    struct PageTestFrameworkTests {
        static let root = "pages/fixtures/test/"

        @Test func qunitSuiteCountsAndFailures() async throws {
            let run = try await PageTestRun.run([Self.root + "qunit/suite.html", "--screenshot", "off"])
            defer { run.cleanUp() }
            let page = Self.root + "qunit/suite.html"
            #expect(run.status == 1, "stderr: \(run.stderr)")
            #expect(run.page(page)?["framework"] == "qunit")
            #expect(run.counts(page) == ["passed": 3, "failed": 2, "skipped": 1, "todo": 0])
            let wrong = try #require(run.test(page, "math › subtracts wrongly")?["failures"]?[0])
            #expect(wrong["kind"] == "assertion")
            #expect(wrong["message"] == "five minus three")
            #expect(wrong["actual"] == "2")
            #expect(wrong["expected"] == "3")
            #expect(run.test(page, "math › throws")?["failures"]?[0]?["kind"] == "error")
            #expect(run.test(page, "math › adds")?["console"]?[0]?["text"] == "adding 1 + 1")
            #expect(run.test(page, "strings › case › upper-cases")?["status"] == "passed")
            #expect(run.summaryLine == "hybrid-run: 3 passed, 2 failed, 1 skipped")
        }

        @Test func mochaWithChaiSuiteCountsHooksAndDiffs() async throws {
            let run = try await PageTestRun.run([Self.root + "mocha/suite.html", "--screenshot", "off"])
            defer { run.cleanUp() }
            let page = Self.root + "mocha/suite.html"
            #expect(run.status == 1, "stderr: \(run.stderr)")
            #expect(run.counts(page) == ["passed": 4, "failed": 5, "skipped": 1, "todo": 0])
            let order = try #require(run.test(page, "cart › keeps items in order")?["failures"]?[0])
            #expect(order["kind"] == "assertion")
            #expect(order["actual"] == #"["a","b"]"#)
            #expect(order["expected"] == #"["b","a"]"#)
            #expect(run.test(page, #"cart › discounts › "before all" hook for "takes 10% off""#)?["status"] == "failed")
            #expect(run.test(page, #"cart › checkout › "after all" hook for "pays""#)?["failures"]?[0]?["message"] == "Error: could not close the session")
            #expect(run.test(page, "cart › loads from a promise")?["status"] == "passed")
        }

        @Test func jasmineSuiteCountsAndAfterAllFailure() async throws {
            let run = try await PageTestRun.run([Self.root + "jasmine/suite.html", "--screenshot", "off"])
            defer { run.cleanUp() }
            let page = Self.root + "jasmine/suite.html"
            #expect(run.status == 1, "stderr: \(run.stderr)")
            #expect(run.counts(page) == ["passed": 4, "failed": 3, "skipped": 2, "todo": 0])
            let stock = try #require(run.test(page, "Inventory › lists what is in stock")?["failures"]?[0])
            #expect(stock["actual"] == #"["apples"]"#)
            #expect(stock["expected"] == #"["apples","pears"]"#)
            let outside = try #require(run.test(page, "(outside any test)")?["failures"]?[0]?["message"]?.stringValue)
            #expect(outside.contains("could not delete the report files"))
            #expect(run.test(page, "Inventory › counts apples")?["console"]?[0]?["text"] == "apples: 3")
        }

        @Test func jasmineExampleSpecsFromDebianPass() async throws {
            let run = try await PageTestRun.run([Self.root + "jasmine/examples.html"])
            defer { run.cleanUp() }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.counts() == ["passed": 5, "failed": 0, "skipped": 0, "todo": 0])
            #expect(run.test(Self.root + "jasmine/examples.html", "Player › #resume › should throw an exception if song is already playing") != nil)
        }

        @Test func hybridTestSuiteCountsTodoAndConsole() async throws {
            let run = try await PageTestRun.run([Self.root + "hybrid/suite.html", "--screenshot", "off"])
            defer { run.cleanUp() }
            let page = Self.root + "hybrid/suite.html"
            #expect(run.status == 1)
            #expect(run.counts(page) == ["passed": 3, "failed": 2, "skipped": 1, "todo": 1])
            let negative = try #require(run.test(page, "formats a negative price")?["failures"]?[0])
            #expect(negative["message"] == "negative prices go in parentheses")
            #expect(negative["actual"] == #""-1.00 EUR""#)
            #expect(run.test(page, "formats a price")?["console"]?[0]?["text"] == "formatting 3.5")
            #expect(run.test(page, "throws on a broken price")?["failures"]?[0]?["kind"] == "error")
            #expect(run.summaryLine == "hybrid-run: 3 passed, 2 failed, 1 skipped, 1 todo")
        }

        @Test func everyFrameworksPassingPagesExitZero() async throws {
            let pages = ["qunit", "mocha", "jasmine", "hybrid"].map { Self.root + $0 + "/all-pass.html" } + [Self.root + "hybrid/auto-end.html"]
            let run = try await PageTestRun.run(pages)
            defer { run.cleanUp() }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.pages.compactMap { $0["framework"]?.stringValue } == ["hybrid", "hybrid", "jasmine", "mocha", "qunit"])
            #expect(run.summaryLine == "hybrid-run: 11 passed, 0 failed, 0 skipped")
            #expect(run.summary["exitCode"] == 0)
        }

        @Test func nativeHandlersAreMockedInTests() async throws {
            let page = Self.root + "hybrid/bridge.html"
            let mocked = try await PageTestRun.run([page, "--handlers", Self.root + "mocks.json"])
            defer { mocked.cleanUp() }
            #expect(mocked.status == 0, "stdout: \(mocked.stdout)")
            #expect(mocked.counts(page)["passed"] == 3)
            #expect(mocked.test(page, "a mocked handler answers")?["console"]?[0]?["text"] == #"mock.answer replied {"answer":42}"#)
            let unmocked = try await PageTestRun.run([page, "--screenshot", "off"])
            defer { unmocked.cleanUp() }
            #expect(unmocked.status == 1)
            #expect(unmocked.test(page, "a mocked handler answers")?["status"] == "failed")
        }

        @Test func explicitFrameworkThatThePageDoesNotUseIsNotAPass() async throws {
            let run = try await PageTestRun.run([Self.root + "qunit/all-pass.html", "--framework", "jasmine"])
            defer { run.cleanUp() }
            #expect(run.status == 2, "stdout: \(run.stdout)")
            #expect(run.page(Self.root + "qunit/all-pass.html")?["outcome"] == "frameworkNotStarted")
            #expect(run.page(Self.root + "qunit/all-pass.html")?["reason"] == "--framework jasmine: the page has no jasmine tests (it has qunit)")
        }
    }
}
