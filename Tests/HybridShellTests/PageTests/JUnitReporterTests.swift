import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HybridShell
@testable import hybrid_run
import Testing

@Suite("JUnit reporter (pure)")
@EngineActor
struct JUnitReporterTests {
    @Test func writesOneTestsuitePerPage() throws {
        let text = try ReportSamples.render(ReportSamples.run) { JUnitReporter(output: $0) }
        #expect(text == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="hybrid-run" tests="7" failures="1" errors="2" skipped="2" time="0.251">
              <testsuite name="tests/math.html" tests="5" failures="1" errors="0" skipped="2" time="0.120" file="tests/math.html">
                <properties>
                  <property name="url" value="file:///t/math.html"/>
                  <property name="framework" value="qunit"/>
                </properties>
                <testcase classname="tests/math.html › Math" name="adds" time="0.012" file="tests/math.html"/>
                <testcase classname="tests/math.html › Math" name="divides" time="0.003" file="tests/math.html">
                  <failure message="expected 1 to equal 2" type="AssertionError">expected 1 to equal 2
            expected: 2
            actual: 1
            divides@file:///t/math.html:10:5
            global code@file:///t/math.html:20:1</failure>
                  <system-out>file:///t/math.html:9:3: CONSOLE LOG dividing
            [[ATTACHMENT|test-results/math-divides.png]]</system-out>
                </testcase>
                <testcase classname="tests/math.html › Math" name="later" time="0.000" file="tests/math.html">
                  <skipped/>
                </testcase>
                <testcase classname="tests/math.html › Math" name="someday" time="0.000" file="tests/math.html">
                  <skipped message="todo"/>
                </testcase>
                <testcase classname="tests/math.html › Math" name="retried" time="0.005" file="tests/math.html">
                  <properties>
                    <property name="flaky" value="true"/>
                    <property name="attempts" value="2"/>
                  </properties>
                  <system-out>[flaky] failed at first, passed on attempt 2</system-out>
                </testcase>
              </testsuite>
              <testsuite name="tests/broken.html" tests="1" failures="0" errors="1" skipped="0" time="0.040" file="tests/broken.html">
                <properties>
                  <property name="url" value="file:///t/broken.html"/>
                </properties>
                <testcase classname="tests/broken.html" name="tests/broken.html" time="0.040" file="tests/broken.html">
                  <error message="the web process crashed" type="crashed">the web process crashed</error>
                  <system-out>[[ATTACHMENT|test-results/broken.png]]</system-out>
                </testcase>
                <system-out>file:///t/broken.html:1:7: CONSOLE JS ERROR boom</system-out>
              </testsuite>
              <testsuite name="tests/empty.html" tests="1" failures="0" errors="1" skipped="0" time="0.008" file="tests/empty.html">
                <properties>
                  <property name="url" value="file:///t/empty.html"/>
                  <property name="framework" value="mocha"/>
                </properties>
                <testcase classname="tests/empty.html" name="tests/empty.html" time="0.008" file="tests/empty.html">
                  <error message="no tests found" type="noTests">no tests found</error>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    /// Issue 12 item 2: no made-up `(run)` suite; a cancelled page is one skipped testcase named
    /// after it, counted as the summary line counts it.
    @Test func cancelledPagesAreSkippedTestcasesAndNothingIsMadeUp() throws {
        let summary = ReportSamples.interruptedRun
        let text = try ReportSamples.render(summary) { JUnitReporter(output: $0) }
        #expect(text.contains("""
                <testcase classname="tests/late.html" name="tests/late.html" time="0.000" file="tests/late.html">
                  <skipped message="cancelled: interrupted by a signal"/>
                </testcase>
            """))
        #expect(!text.contains("(run)") && !text.contains("(page)") && !text.contains("(interrupted)"))
        let counts = summary.counts
        #expect(counts.pagesCancelled == 1)
        #expect(text.contains("<testsuites name=\"hybrid-run\" tests=\"\(counts.tests + counts.pageEntries)\""))
    }

    /// The JUnit totals are the summary's tests plus one entry per page that ran no tests of its own.
    @Test func totalsAreTheSummarysCounts() throws {
        let summary = ReportSamples.run
        let counts = summary.counts
        #expect(summary.summaryLine == "hybrid-run: 2 passed, 1 failed, 1 skipped, 1 todo (1 flaky); 1 page could not run; 1 page without tests")
        let text = JUnitReporter.document(summary)
        #expect(text.contains(#"<testsuites name="hybrid-run" tests="7" failures="1" errors="2" skipped="2""#))
        #expect(counts.tests + counts.pageEntries == 7)
        #expect(counts.failed == 1 && counts.pagesCouldNotRun + counts.pagesWithoutTests == 2 && counts.skipped + counts.todo == 2)
    }

    /// Issue 12 item 3: reruns as Maven Surefire writes them, with each earlier attempt's message,
    /// type and stack.
    @Test func flakyAndRerunFailuresAreSurefireElements() {
        let first = TestFailure(message: "expected 1 to equal 2", stack: "retried@file:///t/math.html:3:1", actual: "1", expected: "2")
        let thrown = TestFailure(kind: .error, message: "TypeError: x is undefined", stack: "f@a.js:1:2")
        let flaky = TestCaseResult(name: "retried", status: .passed, flaky: true, attempts: 3, earlierFailures: [first, thrown])
        let failing = TestCaseResult(name: "broken", status: .failed, failures: [TestFailure(message: "still <wrong>")], attempts: 2,
                                     earlierFailures: [first])
        let page = PageTestResult(page: "a.html", url: "file:///a.html", outcome: .completed, tests: [flaky, failing], attempts: 3)
        let text = JUnitReporter.document(TestRunSummary(pages: [page], duration: 0))
        #expect(text.contains("""
                  <flakyFailure message="expected 1 to equal 2" type="AssertionError"><stackTrace>expected 1 to equal 2
            expected: 2
            actual: 1
            retried@file:///t/math.html:3:1</stackTrace></flakyFailure>
                  <flakyError message="TypeError: x is undefined" type="TypeError"><stackTrace>TypeError: x is undefined
            f@a.js:1:2</stackTrace></flakyError>
            """), "\(text)")
        #expect(text.contains("""
                  <failure message="still &lt;wrong&gt;" type="AssertionError">still &lt;wrong&gt;</failure>
                  <rerunFailure message="expected 1 to equal 2" type="AssertionError"><stackTrace>
            """), "\(text)")
        // A flaky test passed: it counts as a test, not a failure.
        #expect(text.contains(#"<testsuites name="hybrid-run" tests="2" failures="1" errors="0" skipped="0""#))
    }

    @Test func pageWithoutTestsIsAnEmptySuiteWhenTheRunPassesWithNoTests() {
        let text = JUnitReporter.document(TestRunSummary(pages: [ReportSamples.emptyPage], duration: 1234.5678, passWithNoTests: true))
        #expect(text == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="hybrid-run" tests="0" failures="0" errors="0" skipped="0" time="1.235">
              <testsuite name="tests/empty.html" tests="0" failures="0" errors="0" skipped="0" time="0.008" file="tests/empty.html">
                <properties>
                  <property name="url" value="file:///t/empty.html"/>
                  <property name="framework" value="mocha"/>
                </properties>
              </testsuite>
            </testsuites>
            """)
    }

    @Test func exceptionsAreErrorsNamedAfterTheirType() {
        let test = TestCaseResult(name: "throws", status: .failed, failures: [
            TestFailure(message: "expected true", stack: nil),
            TestFailure(kind: .error, message: "TypeError: undefined is not an object", stack: "f@a.js:1:2"),
        ])
        let page = PageTestResult(page: "a.html", url: "file:///a.html", outcome: .completed, tests: [test])
        let text = JUnitReporter.document(TestRunSummary(pages: [page], duration: 0))
        #expect(text.contains("""
                  <error message="TypeError: undefined is not an object" type="TypeError">expected true

            TypeError: undefined is not an object
            f@a.js:1:2</error>
            """))
        #expect(text.contains(#"<testsuites name="hybrid-run" tests="1" failures="0" errors="1" skipped="0" time="0.000">"#))
    }

    @Test func hostileStringsGiveAWellFormedDocumentThatKeepsThem() throws {
        let text = try ReportSamples.render(ReportSamples.nastyRun) { JUnitReporter(output: $0) }
        let reader = XMLReader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        // What XML 1.0 cannot hold at all comes back as visible `\u{…}` text; everything else exactly.
        let names = ReportSamples.nastyPage.tests.map { XMLReader.storable($0.name) }
        #expect(Array(reader.testcaseNames.prefix(names.count)) == names)
        #expect(reader.testcaseNames.last == ReportSamples.nastyCrash.page)
        #expect(Array(reader.errorMessages.prefix(ReportSamples.nastyStrings.count)) == ReportSamples.nastyStrings.map { XMLReader.storable("TypeError: " + $0) })
        #expect(reader.suiteNames == [ReportSamples.nastyPage.page, ReportSamples.nastyCrash.page])
        #expect(reader.systemOuts.contains(XMLReader.storable(ReportSamples.nastyMessage.miniBrowserLine)))
        #expect(reader.systemOuts.contains { $0.hasSuffix("[[ATTACHMENT|shots/crash \\u{0}.png]]") })
        #expect(text.contains("nul\\u{0}byte"))
    }
}

/// Collects what the JUnit tests check from a parsed document.
final class XMLReader: NSObject, XMLParserDelegate {
    var testcaseNames: [String] = []
    var suiteNames: [String] = []
    var errorMessages: [String] = []
    var systemOuts: [String] = []
    private var text: String?

    /// `value` with the characters XML 1.0 cannot hold replaced as the reporter does.
    static func storable(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            if (scalar.value < 0x20 && !["\t", "\n", "\r"].contains(scalar)) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testcase": testcaseNames.append(attributes["name"] ?? "")
        case "testsuite": suiteNames.append(attributes["name"] ?? "")
        case "error": errorMessages.append(attributes["message"] ?? "")
        case "system-out": text = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text? += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "system-out", let text { systemOuts.append(text) }
        if name == "system-out" { text = nil }
    }
}
