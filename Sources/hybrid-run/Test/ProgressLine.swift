import HybridShell
/// The line that tells a person at a terminal how far the run is (`[12/40] 230 passed, 1 failed ·
/// running checkout.html`), redrawn in place on stderr; in CI logs (no terminal) a plain line per
/// finished page instead, unless a reporter already prints one.
@EngineActor
final class ProgressLine {
    private let errors: OutputLines
    private let isTerminal: Bool
    private let plainLines: Bool
    private let total: Int
    private var finished = 0
    private var passed = 0
    private var failed = 0
    private var running: [Int: String] = [:]
    private var drawn = false

    init(errors: OutputLines, isTerminal: Bool, plainLines: Bool, total: Int) {
        self.errors = errors
        self.isTerminal = isTerminal
        self.plainLines = plainLines
        self.total = total
    }

    func started(_ page: TestPage, worker: Int) {
        running[worker] = page.name
        redraw()
    }

    func finished(_ result: PageTestResult) {
        running[result.worker] = nil
        finished += 1
        passed += result.count(.passed)
        failed += result.count(.failed)
        if !isTerminal, plainLines {
            var line = "hybrid-run: [\(finished)/\(total)] \(result.page): "
            if let reason = result.outcome.reason {
                line += reason
            } else {
                line += "\(result.count(.passed)) passed, \(result.count(.failed)) failed, \(result.count(.skipped)) skipped"
            }
            errors.write(line + " (\(Int(result.duration.rounded())) ms)")
        }
        redraw()
    }

    /// Removes the line before the final output.
    func clear() {
        guard isTerminal, drawn else { return }
        errors.writeRaw("\r\u{1B}[2K")
        drawn = false
    }

    private func redraw() {
        guard isTerminal else { return }
        let names = running.keys.sorted().compactMap { running[$0] }
        var line = "[\(finished)/\(total)] \(passed) passed, \(failed) failed"
        if !names.isEmpty { line += " · running " + names.joined(separator: ", ") }
        if line.count > 150 { line = String(line.prefix(149)) + "…" }
        errors.writeRaw("\r\u{1B}[2K" + line)
        drawn = true
    }
}
