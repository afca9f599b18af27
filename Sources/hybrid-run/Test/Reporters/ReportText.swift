import HybridShell
/// Text shared by the console reporters (list and dot): page headers, test titles and the block
/// that explains a failed test. Page-supplied text is split into lines and has its control
/// characters made visible, so a message can neither break the layout nor drive the terminal.
enum ReportText {
    /// How many stack lines a failure shows before `… N more stack lines`.
    static let stackLimit = 4

    /// `12 ms`, rounded to whole milliseconds.
    static func milliseconds(_ value: Double) -> String {
        "\(wholeMilliseconds(value)) ms"
    }

    static func wholeMilliseconds(_ value: Double) -> Int {
        value.isFinite && value > 0 ? Int(value.rounded()) : 0
    }

    /// `page (qunit) — 3 passed, 1 failed, 0 skipped, 1 todo in 120 ms`, `page — could not run:
    /// reason`, `page — no tests`, `page — cancelled: reason`.
    static func header(_ page: PageTestResult) -> String {
        let framework = page.framework.map { " (\(singleLine($0)))" } ?? ""
        let title = singleLine(page.page) + framework
        switch page.outcome {
        case .completed:
            var counts = "\(page.count(.passed)) passed, \(page.count(.failed)) failed, \(page.count(.skipped)) skipped"
            if page.count(.todo) > 0 { counts += ", \(page.count(.todo)) todo" }
            return "\(title) — \(counts) in \(milliseconds(page.duration))"
        case .noTests:
            return "\(title) — no tests"
        case .cancelled(let reason):
            return "\(title) — cancelled: \(singleLine(reason))"
        case .loadFailed(let reason), .crashed(let reason), .bridgeUnavailable(let reason),
             .frameworkNotStarted(let reason), .timedOut(let reason):
            return "\(title) — could not run: \(singleLine(reason))"
        }
    }

    /// Whether the page gets its own console lines and screenshot printed under its header.
    static func showsPageDetails(_ page: PageTestResult) -> Bool {
        page.outcome != .completed || page.count(.failed) > 0
    }

    /// The page's own console lines (outside tests) and its screenshot.
    static func pageDetails(_ page: PageTestResult, indent: String) -> [String] {
        var lines: [String] = []
        if !page.console.isEmpty {
            lines.append(indent + "console:")
            lines += page.console.flatMap { indented(self.lines(of: $0.miniBrowserLine), by: indent + "  ") }
        }
        if let screenshot = page.screenshot { lines.append(indent + "screenshot: " + singleLine(screenshot)) }
        return lines
    }

    /// What went wrong in a failed test: each failure (message, expected, actual, a few stack
    /// lines), then the test's console lines and its screenshot.
    static func failureDetails(_ test: TestCaseResult, indent: String) -> [String] {
        var lines: [String] = []
        for failure in test.failures {
            lines += indented(self.lines(of: failure.message), by: indent)
            if let expected = failure.expected { lines += labelled("expected: ", expected, indent: indent) }
            if let actual = failure.actual { lines += labelled("actual: ", actual, indent: indent) }
            if let stack = failure.stack { lines += indented(trimmedStack(stack, message: failure.message), by: indent) }
        }
        if !test.console.isEmpty {
            lines.append(indent + "console:")
            lines += test.console.flatMap { indented(self.lines(of: $0.miniBrowserLine), by: indent + "  ") }
        }
        if let screenshot = test.screenshot { lines.append(indent + "screenshot: " + singleLine(screenshot)) }
        return lines
    }

    /// The first few lines of a stack, without the line that only repeats the message (V8 style)
    /// and without blank lines or their own indentation.
    static func trimmedStack(_ stack: String, message: String) -> [String] {
        var frames = lines(of: stack).map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
        if let first = frames.first, first == message || first.hasSuffix(": " + message) { frames.removeFirst() }
        guard frames.count > stackLimit else { return frames }
        let hidden = frames.count - stackLimit
        return frames.prefix(stackLimit) + ["… \(hidden) more stack line\(hidden == 1 ? "" : "s")"]
    }

    /// `text` split at every line break (an empty text is one empty line), each line made safe.
    static func lines(of text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { visible(String($0)) }
    }

    /// `text` on one line: line breaks become spaces.
    static func singleLine(_ text: String) -> String {
        lines(of: text).joined(separator: " ")
    }

    /// Control characters other than tab written as `\u{1B}`, so page text cannot move the cursor
    /// or change colours.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }

    private static func labelled(_ label: String, _ text: String, indent: String) -> [String] {
        let lines = self.lines(of: text)
        let continuation = indent + String(repeating: " ", count: label.count)
        return [indent + label + lines[0]] + lines.dropFirst().map { continuation + $0 }
    }

    private static func indented(_ lines: [String], by indent: String) -> [String] {
        lines.map { indent + $0 }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }
}
