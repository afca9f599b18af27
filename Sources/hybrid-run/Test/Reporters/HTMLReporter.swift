import HybridShell
import Foundation

/// One self-contained HTML page for the whole run (`--reporter html[:DIR]` → `DIR/index.html`),
/// written when the run ends: inline CSS, no script, screenshots inline as `data:` URLs, so the
/// file can be mailed, archived as a CI artifact or opened in WebKit itself.
///
/// - The header carries ``TestRunCounts`` — the same numbers as the summary line — each in an
///   element with a stable id (`count-passed`, `count-failed`, `count-skipped`, `count-todo`,
///   `count-flaky`, `count-pages-could-not-run`, `count-pages-cancelled`,
///   `count-pages-without-tests`) and the line itself in `#summary`.
/// - One `<section class="page">` per page (`data-outcome` is ``PageTestOutcome/name``) with its
///   reason, console and screenshot; one `<li class="test">` per test (`data-status`), failures
///   with message, expected, actual and stack, the test's console and screenshot. Failed pages
///   and tests are open (`<details open>`), the rest folded.
/// - Everything from the page (names, messages, console) is HTML-escaped.
@EngineActor
final class HTMLReporter: DocumentReporter {
    let output: ReportOutput

    init(output: ReportOutput) {
        self.output = output
    }

    nonisolated static func text(of summary: TestRunSummary) -> String { HTMLReporter.document(summary) }

    /// The whole page. `image` reads a screenshot for inlining (nil when it cannot be read; the
    /// path is shown instead).
    nonisolated static func document(_ summary: TestRunSummary,
                                            image: (String) -> Data? = { FileManager.default.contents(atPath: $0) }) -> String {
        let counts = summary.counts
        var html: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>hybrid-run test report</title>",
            "<style>\(style)</style>",
            "</head>",
            "<body>",
            "<header>",
            "<h1>hybrid-run test report</h1>",
            "<p id=\"summary\">\(escape(summary.summaryLine))</p>",
            "<ul class=\"counts\">",
        ]
        let cells: [(String, String, Int)] = [
            ("passed", "passed", counts.passed), ("failed", "failed", counts.failed), ("skipped", "skipped", counts.skipped),
            ("todo", "todo", counts.todo), ("flaky", "flaky", counts.flaky),
            ("pages-could-not-run", "pages could not run", counts.pagesCouldNotRun),
            ("pages-cancelled", "pages cancelled", counts.pagesCancelled),
            ("pages-without-tests", "pages without tests", counts.pagesWithoutTests),
        ]
        for (id, label, value) in cells {
            html.append("<li class=\"\(id)\"><span id=\"count-\(id)\">\(value)</span> \(label)</li>")
        }
        html.append("</ul>")
        var facts = ["\(summary.pages.count) page\(summary.pages.count == 1 ? "" : "s")", ReportText.milliseconds(summary.duration),
                     "exit code \(summary.exitStatus.rawValue)"]
        if let shard = summary.shard { facts.append("shard \(shard.index)/\(shard.count)") }
        if let interruption = summary.interruption { facts.append("stopped: " + interruption.message) }
        html.append("<p class=\"facts\">\(escape(facts.joined(separator: " · ")))</p>")
        html.append("</header>")
        html.append("<main>")
        for page in summary.pages { html += pageSection(page, passWithNoTests: summary.passWithNoTests, image: image) }
        html.append("</main>")
        html.append("</body>")
        html.append("</html>")
        return html.joined(separator: "\n")
    }

    private nonisolated static func pageSection(_ page: PageTestResult, passWithNoTests: Bool, image: (String) -> Data?) -> [String] {
        let troubled = page.outcome != .completed && !(page.outcome == .noTests && passWithNoTests) || page.count(.failed) > 0
        var lines = ["<section class=\"page\" data-outcome=\"\(page.outcome.name)\">",
                     "<details\(troubled ? " open" : "")>",
                     "<summary><span class=\"badge \(page.outcome.name)\">\(escape(outcomeLabel(page.outcome)))</span> "
                        + "<span class=\"page-name\">\(escape(page.page))</span> "
                        + "<span class=\"muted\">\(escape(pageFacts(page)))</span></summary>"]
        if let reason = page.outcome.reason { lines.append("<p class=\"reason\">\(escape(reason))</p>") }
        lines.append("<p class=\"muted\">\(escape(page.url))</p>")
        lines += consoleBlock(page.console)
        lines += screenshot(page.screenshot, image: image)
        if !page.tests.isEmpty {
            lines.append("<ul class=\"tests\">")
            for test in page.tests { lines += testItem(test, image: image) }
            lines.append("</ul>")
        }
        lines += ["</details>", "</section>"]
        return lines
    }

    private nonisolated static func testItem(_ test: TestCaseResult, image: (String) -> Data?) -> [String] {
        let open = test.status == .failed || test.flaky
        var label = test.status.rawValue
        if test.flaky { label += " (flaky)" }
        var lines = ["<li class=\"test\" data-status=\"\(test.status.rawValue)\"\(test.flaky ? " data-flaky=\"true\"" : "")>",
                     "<details\(open ? " open" : "")>",
                     "<summary><span class=\"badge \(test.status.rawValue)\">\(escape(label))</span> "
                        + "<span class=\"test-name\">\(escape(test.fullName))</span> "
                        + "<span class=\"muted\">\(escape(ReportText.milliseconds(test.duration)))</span></summary>"]
        for failure in test.failures { lines += failureBlock(failure, title: nil) }
        for (index, failure) in test.earlierFailures.enumerated() {
            lines += failureBlock(failure, title: "attempt \(index + 1) of \(test.attempts)")
        }
        lines += consoleBlock(test.console)
        lines += screenshot(test.screenshot, image: image)
        lines += ["</details>", "</li>"]
        return lines
    }

    private nonisolated static func failureBlock(_ failure: TestFailure, title: String?) -> [String] {
        var lines = ["<div class=\"failure \(failure.kind.rawValue)\">"]
        if let title { lines.append("<p class=\"muted\">\(escape(title))</p>") }
        lines.append("<p class=\"message\">\(escape(failure.message))</p>")
        if failure.expected != nil || failure.actual != nil {
            lines.append("<dl>")
            if let expected = failure.expected { lines.append("<dt>expected</dt><dd class=\"expected\"><pre>\(escape(expected))</pre></dd>") }
            if let actual = failure.actual { lines.append("<dt>actual</dt><dd class=\"actual\"><pre>\(escape(actual))</pre></dd>") }
            lines.append("</dl>")
        }
        if let stack = failure.stack { lines.append("<pre class=\"stack\">\(escape(stack))</pre>") }
        lines.append("</div>")
        return lines
    }

    private nonisolated static func consoleBlock(_ console: [ConsoleMessage]) -> [String] {
        guard !console.isEmpty else { return [] }
        let text = console.map { escape($0.miniBrowserLine) }.joined(separator: "\n")
        return ["<pre class=\"console\">\(text)</pre>"]
    }

    private nonisolated static func screenshot(_ path: String?, image: (String) -> Data?) -> [String] {
        guard let path else { return [] }
        guard let data = image(path) else { return ["<p class=\"muted\">screenshot: \(escape(path)) (not readable)</p>"] }
        return ["<figure><img alt=\"\(escape("screenshot " + path))\" src=\"data:image/png;base64,\(data.base64EncodedString())\">"
                + "<figcaption class=\"muted\">\(escape(path))</figcaption></figure>"]
    }

    private nonisolated static func outcomeLabel(_ outcome: PageTestOutcome) -> String {
        switch outcome {
        case .completed: "completed"
        case .noTests: "no tests"
        case .cancelled: "cancelled"
        case .loadFailed, .crashed, .bridgeUnavailable, .frameworkNotStarted, .timedOut: "could not run (\(outcome.name))"
        }
    }

    private nonisolated static func pageFacts(_ page: PageTestResult) -> String {
        var facts = [String]()
        if let framework = page.framework { facts.append(framework) }
        facts.append("\(page.count(.passed)) passed, \(page.count(.failed)) failed, \(page.count(.skipped)) skipped")
        facts.append(ReportText.milliseconds(page.duration))
        if page.attempts > 1 { facts.append("\(page.attempts) attempts") }
        return facts.joined(separator: " · ")
    }

    /// Text and attribute values: `&`, `<`, `>`, `"` and `'` as references; control characters
    /// other than tab and line feed made visible, as XML reports do.
    nonisolated static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private nonisolated static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
        header{padding:16px 24px;background:#fff;border-bottom:1px solid #ddd}
        h1{font-size:20px;margin:0 0 8px}main{padding:12px 24px}
        .counts{display:flex;flex-wrap:wrap;gap:12px;list-style:none;padding:0;margin:8px 0}
        .counts li{padding:4px 10px;border-radius:12px;background:#eee}.counts span{font-weight:bold}
        .counts .passed{background:#dff5e1}.counts .failed{background:#fde2e1}.counts .pages-could-not-run{background:#fde2e1}
        .page{background:#fff;border:1px solid #ddd;border-radius:6px;margin:8px 0;padding:6px 12px}
        summary{cursor:pointer}.tests{list-style:none;padding-left:12px}.test{margin:4px 0}
        .badge{display:inline-block;min-width:64px;padding:0 6px;border-radius:4px;font-size:12px;text-align:center;background:#eee}
        .badge.passed,.badge.completed{background:#dff5e1}.badge.failed{background:#fde2e1}
        .badge.skipped,.badge.todo,.badge.cancelled,.badge.noTests{background:#fff4d6}
        .badge.loadFailed,.badge.crashed,.badge.bridgeUnavailable,.badge.frameworkNotStarted,.badge.timedOut{background:#f8c9c6}
        .muted{color:#777}.reason,.message{color:#b3261e;white-space:pre-wrap}
        pre{background:#f4f4f4;padding:6px;overflow:auto;white-space:pre-wrap;margin:4px 0}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 8px;margin:4px 0}dd{margin:0}
        img{max-width:640px;border:1px solid #ccc}figure{margin:6px 0}
        """
}
