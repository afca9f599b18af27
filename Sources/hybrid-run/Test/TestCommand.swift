import HybridShell
import Foundation

/// `hybrid-run test PAGES…`: runs test pages in WebKit views from a warm pool, reports through the
/// chosen reporters, ends with `hybrid-run: N passed, N failed, N skipped` and an exit code that
/// never reports a run as green when it was not (see ``TestRunSummary/exitStatus``).
@EngineActor
final class TestCommand {
    private let options: TestRunOptions
    private let output: OutputLines
    private let errors: OutputLines
    private let isTerminal: Bool

    init(options: TestRunOptions, output: OutputLines = .standardOutput, errors: OutputLines = .standardError,
                isTerminal: Bool = isatty(2) == 1) {
        self.options = options
        self.output = output
        self.errors = errors
        self.isTerminal = isTerminal
    }

    func run() async -> RunOutcome {
        for warning in options.warnings { errors.write("hybrid-run: warning: \(warning)") }
        if !options.mergeReports.isEmpty { return merge() }
        if let problem = MainLoop.displayError { return .noDisplay(problem) }
        let started = ContinuousClock.now
        let pages = options.pages
        if pages.isEmpty {
            let summary = TestRunSummary(pages: [], duration: 0, shard: shardTuple, passWithNoTests: options.passWithNoTests)
            output.write(summary.summaryLine)
            return RunOutcome(summary.exitStatus, summary.exitStatus == .success ? nil : "no test pages found")
        }

        let executor: WebKitPageTestExecutor
        do {
            executor = try WebKitPageTestExecutor(settings: options.executor, workers: min(options.workers, max(1, pages.count)))
        } catch {
            return RunOutcome(.usage, "\(error)")
        }
        if let grep = options.executor.adapter.grep {
            // JavaScriptCore judges the pattern, now that WebKit is set up and before any page loads.
            do {
                try TestNameFilter.validate(grep, flag: options.executor.adapter.grepInvert ? "--grep-invert" : "--grep")
            } catch {
                executor.close()
                return RunOutcome(.usage, "\(error)")
            }
        }
        executor.prewarm()
        let scheduler = TestScheduler(pages: pages, workers: options.workers, retries: options.list ? 0 : options.retries,
                                      maxFailures: options.maxFailures, executor: executor)
        ShutdownDeadline.onTerminationSignal(status: .failure) { [weak scheduler] _ in scheduler?.interrupt(.signal) }
        let globalTimer = options.globalTimeout.map { limit in
            LoopTimer(after: limit) { [weak scheduler] in
                ShutdownDeadline.arm(status: .timeout, what: "the global timeout")
                scheduler?.interrupt(.globalTimeout)
            }
        }

        let useColor = isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let reporters = options.list ? [] : options.reporters.map { $0.makeReporter(useColor: useColor, passWithNoTests: options.passWithNoTests) }
        let humanOnStdout = options.list || options.reporters.contains { $0.destination == .standardOutput && ($0.kind == .list || $0.kind == .dot) }
        let progress = ProgressLine(errors: errors, isTerminal: isTerminal, plainLines: !humanOnStdout, total: pages.count)
        for reporter in reporters { reporter.runStarted(pages: pages.map(\.name), workers: options.workers) }
        scheduler.onPageStarted = { page, worker in progress.started(page, worker: worker) }
        scheduler.onPageFinished = { [options, output] result in
            progress.clear()
            if options.list {
                TestCommand.printList(result, to: output)
            } else {
                for reporter in reporters { reporter.pageFinished(result) }
            }
            progress.finished(result)
        }

        let results = await scheduler.run()
        globalTimer?.cancel()
        executor.close()
        progress.clear()

        var summary = TestRunSummary(pages: results, duration: (ContinuousClock.now - started).milliseconds, shard: shardTuple,
                                     interruption: scheduler.interruption, passWithNoTests: options.passWithNoTests)
        summary.runID = UUID().uuidString.lowercased()
        var reportProblem: String?
        for (choice, reporter) in zip(options.reporters, reporters) {
            do { try reporter.runFinished(summary); announce(choice) } catch { reportProblem = "\(error)" }
        }
        if options.list {
            let count = results.reduce(0) { $0 + $1.tests.count }
            output.write("hybrid-run: \(count) test\(count == 1 ? "" : "s") in \(results.count) page\(results.count == 1 ? "" : "s")")
        } else {
            // The summary line stays out of a JSON, XML or TAP document on stdout.
            let machineOnStdout = options.reporters.contains { $0.destination == .standardOutput && [.json, .junit, .tap].contains($0.kind) }
            (machineOnStdout ? errors : output).write(summary.summaryLine)
        }
        if let reportProblem { return RunOutcome(.failure, reportProblem) }
        return RunOutcome(summary.exitStatus, reason(for: summary))
    }

    /// `--merge`: the reports of earlier runs as one run, through the chosen reporters, with the
    /// exit code that run earns.
    private func merge() -> RunOutcome {
        var summaries: [TestRunSummary] = []
        for path in options.mergeReports {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                let why = FileManager.default.fileExists(atPath: path) ? error.localizedDescription : "no such file"
                return RunOutcome(.usage, "cannot read the report \(path): \(why)")
            }
            do {
                summaries.append(try TestReportMerge.decode(text))
            } catch {
                return RunOutcome(.usage, "\(path): \(error)")
            }
        }
        do {
            try TestReportMerge.checkDistinct(summaries, names: options.mergeReports)
        } catch {
            return RunOutcome(.usage, "\(error)")
        }
        var summary = TestReportMerge.merge(summaries)
        summary.passWithNoTests = summary.passWithNoTests || options.passWithNoTests
        let useColor = isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let reporters = options.reporters.map { $0.makeReporter(useColor: useColor, passWithNoTests: summary.passWithNoTests) }
        for reporter in reporters {
            reporter.runStarted(pages: summary.pages.map(\.page), workers: 1)
            for page in summary.pages { reporter.pageFinished(page) }
        }
        for (choice, reporter) in zip(options.reporters, reporters) {
            do { try reporter.runFinished(summary); announce(choice) } catch { return RunOutcome(.failure, "\(error)") }
        }
        let machineOnStdout = options.reporters.contains { $0.destination == .standardOutput && [.json, .junit, .tap].contains($0.kind) }
        (machineOnStdout ? errors : output).write(summary.summaryLine)
        return RunOutcome(summary.exitStatus, reason(for: summary))
    }

    /// Says where a report file went (one line on stderr, so stdout keeps only reports).
    private func announce(_ choice: ReporterChoice) {
        if let path = choice.path { errors.write("hybrid-run: wrote the \(choice.kind.rawValue) report to \(path)") }
    }

    private var shardTuple: (index: Int, count: Int)? {
        options.shard.map { ($0.index, $0.count) }
    }

    /// The one line on stderr for a run that did not pass.
    private func reason(for summary: TestRunSummary) -> String? {
        switch summary.exitStatus {
        case .success: return nil
        case .testsFailed:
            let failed = summary.count(.failed)
            return summary.interruption.map(\.message) ?? "\(failed) test\(failed == 1 ? "" : "s") failed"
        case .noTests:
            let empty = summary.pages.filter { $0.outcome == .noTests }.map(\.page)
            return empty.isEmpty ? "no tests found" : "no tests found in \(empty.joined(separator: ", ")) (use --pass-with-no-tests to allow it)"
        default:
            if summary.interruption == .signal { return TestRunInterruption.signal.message }
            let broken = summary.pages.filter { $0.outcome.isInfrastructureFailure }
            if let first = broken.first {
                let more = broken.count > 1 ? " (and \(broken.count - 1) more page\(broken.count == 2 ? "" : "s"))" : ""
                return "\(first.page): \(first.outcome.reason ?? first.outcome.name)\(more)"
            }
            return summary.interruption?.message
        }
    }

    private static func printList(_ result: PageTestResult, to output: OutputLines) {
        if let reason = result.outcome.reason, result.outcome != .noTests {
            output.write("\(result.page): could not list tests: \(reason)")
            return
        }
        for test in result.tests { output.write("\(result.page) › \(test.fullName)") }
    }
}
