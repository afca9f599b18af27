import HybridShell
@testable import hybrid_run
import Testing

@Suite("TAP reporter (pure)")
@EngineActor
struct TAPReporterTests {
    @Test func writesTAP13WithDiagnosticsPlanAndBailOut() throws {
        let text = try ReportSamples.render(ReportSamples.run) { TAPReporter(output: $0) }
        #expect(text == """
            TAP version 13
            ok 1 - tests/math.html › Math › adds
            not ok 2 - tests/math.html › Math › divides
              ---
              message: "expected 1 to equal 2"
              severity: "fail"
              data:
                expected: "2"
                actual: "1"
              stack: |-
                divides@file:///t/math.html:10:5
                global code@file:///t/math.html:20:1
              at: "tests/math.html"
              duration_ms: 3.4
              console:
                - "file:///t/math.html:9:3: CONSOLE LOG dividing"
              screenshot: "test-results/math-divides.png"
              ...
            ok 3 - tests/math.html › Math › later # SKIP skipped
            not ok 4 - tests/math.html › Math › someday # TODO
            ok 5 - tests/math.html › Math › retried
              ---
              flaky: true
              attempts: 2
              ...
            not ok 6 - tests/broken.html # could not run
              ---
              outcome: "crashed"
              message: "the web process crashed"
              severity: "fail"
              at: "tests/broken.html"
              url: "file:///t/broken.html"
              console:
                - "file:///t/broken.html:1:7: CONSOLE JS ERROR boom"
              screenshot: "test-results/broken.png"
              ...
            not ok 7 - tests/empty.html # no tests found
            1..7
            Bail out! tests/broken.html could not run: the web process crashed

            """)
    }

    @Test func interruptedRunBailsOutAfterThePlan() throws {
        let text = try ReportSamples.render(ReportSamples.interruptedRun) { TAPReporter(output: $0) }
        #expect(text.hasSuffix("""
            ok 6 - tests/late.html # SKIP cancelled: interrupted by a signal
            1..6
            Bail out! interrupted by a signal

            """))
    }

    /// Issue 12 item 2: the plan is the summary's tests plus its page entries, in every shape of run.
    @Test(arguments: [ReportSamples.run, ReportSamples.interruptedRun, ReportSamples.nastyRun])
    func planCountsWhatTheSummaryCounts(summary: TestRunSummary) throws {
        let text = try ReportSamples.render(summary) { TAPReporter(output: $0, passWithNoTests: summary.passWithNoTests) }
        let counts = summary.counts
        #expect(text.split(separator: "\n").contains("1..\(counts.tests + counts.pageEntries)"), "\(text)")
    }

    @Test func passingRunHasNoBailOut() throws {
        let page = PageTestResult(page: "a.html", url: "file:///a.html", outcome: .completed, tests: [TestCaseResult(name: "x", status: .passed)])
        let text = try ReportSamples.render(TestRunSummary(pages: [page, ReportSamples.emptyPage], duration: 1, passWithNoTests: true)) {
            TAPReporter(output: $0, passWithNoTests: true)
        }
        #expect(text == "TAP version 13\nok 1 - a.html › x\n# tests/empty.html: no tests found\n1..1\n")
    }

    @Test func hostileStringsKeepEveryLineInShapeAndRoundTripThroughYAML() throws {
        let text = try ReportSamples.render(ReportSamples.nastyRun) { TAPReporter(output: $0) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.removeLast() == "")
        var number = 0
        var messages: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line == "  ---" {
                let end = try #require(lines[index...].firstIndex(of: "  ..."))
                let block = Array(lines[(index + 1)..<end])
                #expect(block.allSatisfy { $0.hasPrefix("    ") || ($0.hasPrefix("  ") && !$0.hasPrefix("   ")) || $0.isEmpty })
                if let message = try MiniYAML.topLevelString("message", in: block) { messages.append(message) }
                index = end + 1
                continue
            }
            if line.hasPrefix("ok ") || line.hasPrefix("not ok ") {
                number += 1
                let prefix = (line.hasPrefix("ok ") ? "ok " : "not ok ") + "\(number) - "
                #expect(line.hasPrefix(prefix))
                // Outside escapes (`\\`, `\#`), a `#` only starts the directive.
                let unescaped = line.replacingOccurrences(of: "\\\\", with: "").replacingOccurrences(of: "\\#", with: "")
                #expect(unescaped.count { $0 == "#" } <= 1)
            } else {
                #expect(line == "TAP version 13" || line == "1..\(number)" || line.hasPrefix("Bail out! "), "\(line)")
            }
            index += 1
        }
        #expect(lines.last == "Bail out! stopped after 3 failed tests (--max-failures)")
        #expect(lines.contains("ok 29 - tests/nasty \\#1.html › skip \\u{0} \\# SKIP # SKIP skipped"))
        #expect(lines.contains("not ok 30 - tests/nasty \\#1.html › todo \\n \\# TODO # TODO"))
        #expect(lines.contains("not ok 32 - tests/crash\\n\\#2.html # could not run"))
        #expect(messages == ReportSamples.nastyStrings + [ReportSamples.nastyCrash.outcome.reason!])
    }
}

/// Reads back the two kinds of YAML scalar the TAP reporter writes: double-quoted strings and
/// literal blocks (`|-`), at the top level of a diagnostic block (indented two spaces).
enum MiniYAML {
    struct Malformed: Error {}

    static func topLevelString(_ key: String, in block: [String]) throws -> String? {
        guard let index = block.firstIndex(where: { $0.hasPrefix("  \(key): ") }) else { return nil }
        let value = String(block[index].dropFirst(key.count + 4))
        if value == "|-" {
            let content = block[(index + 1)...].prefix { $0.isEmpty || $0.hasPrefix("    ") }
            return content.map { $0.isEmpty ? "" : String($0.dropFirst(4)) }.joined(separator: "\n")
        }
        return try unquote(value)
    }

    static func unquote(_ quoted: String) throws -> String {
        var scalars = Array(quoted.unicodeScalars)
        guard scalars.count >= 2, scalars.removeFirst() == "\"", scalars.removeLast() == "\"" else { throw Malformed() }
        var out = String.UnicodeScalarView()
        var index = 0
        func hex(_ count: Int) throws -> Unicode.Scalar {
            guard index + count < scalars.count || index + count == scalars.count,
                  let value = UInt32(String(String.UnicodeScalarView(scalars[index..<(index + count)])), radix: 16),
                  let scalar = Unicode.Scalar(value)
            else { throw Malformed() }
            index += count
            return scalar
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "\\" else {
                guard scalar != "\"" else { throw Malformed() }
                out.append(scalar)
                continue
            }
            guard index < scalars.count else { throw Malformed() }
            let escape = scalars[index]
            index += 1
            switch escape {
            case "\\": out.append("\\")
            case "\"": out.append("\"")
            case "n": out.append("\n")
            case "r": out.append("\r")
            case "t": out.append("\t")
            case "0": out.append("\0")
            case "x": out.append(try hex(2))
            case "u": out.append(try hex(4))
            case "U": out.append(try hex(8))
            default: throw Malformed()
            }
        }
        return String(out)
    }
}
