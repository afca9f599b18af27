import Foundation
import HybridShell

/// One `hybrid-run test …` run in its own output directory, with its JSON report read back.
struct PageTestRun: Sendable {
    let command: CommandLineRun
    /// The `--output` directory (reports, screenshots); removed by ``cleanUp()``.
    let output: String
    /// The JSON report (`--reporter json:<output>/results.json`, added to every run); null when
    /// the run wrote none (usage errors).
    let report: JSONValue

    var status: Int32 { command.status }
    var stdout: String { command.stdout }
    var stderr: String { command.stderr }

    /// Runs `hybrid-run test` with `arguments`, `--output` set to a fresh directory and a JSON report.
    static func run(_ arguments: [String], jsonReport: Bool = true,
                    whileRunning: (@Sendable (CommandLineRun.Running) async -> Void)? = nil) async throws -> PageTestRun {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-test-\(UUID().uuidString)").path
        let reporter = jsonReport ? ["--reporter", "json:\(output)/results.json"] : []
        // `{output}` in an argument stands for that directory (e.g. `junit:{output}/junit.xml`).
        let arguments = arguments.map { $0.replacingOccurrences(of: "{output}", with: output) }
        let command = try await CommandLineRun.run(["test"] + arguments + ["--output", output] + reporter, whileRunning: whileRunning)
        let text = try? String(contentsOfFile: output + "/results.json", encoding: .utf8)
        let report = text.flatMap { try? JSONValue(parsing: $0) } ?? .null
        return PageTestRun(command: command, output: output, report: report)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: output)
    }

    var summary: JSONValue { report["summary"] ?? .null }
    var pages: [JSONValue] { report["pages"]?.arrayValue ?? [] }

    func page(_ name: String) -> JSONValue? {
        pages.first { $0["page"]?.stringValue == name }
    }

    /// passed/failed/skipped/todo of one page, or of the whole run.
    func counts(_ pageName: String? = nil) -> [String: Int] {
        let tests = pageName.map { page($0)?["tests"]?.arrayValue ?? [] } ?? pages.flatMap { $0["tests"]?.arrayValue ?? [] }
        var counts = ["passed": 0, "failed": 0, "skipped": 0, "todo": 0]
        for test in tests {
            if let status = test["status"]?.stringValue { counts[status, default: 0] += 1 }
        }
        return counts
    }

    /// Every failed test as "page › test: messages", for an expectation's message.
    var failures: [String] {
        pages.flatMap { page in
            (page["tests"]?.arrayValue ?? []).filter { $0["status"]?.stringValue == "failed" }.map { test in
                let messages = (test["failures"]?.arrayValue ?? []).map { failure in
                    (failure["message"]?.stringValue ?? "") + (failure["actual"]?.stringValue.map { " (actual: \($0))" } ?? "")
                }
                return "\(page["page"]?.stringValue ?? "?") › \(test["fullName"]?.stringValue ?? "?"): \(messages.joined(separator: "; "))"
            }
        }
    }

    func test(_ pageName: String, _ fullName: String) -> JSONValue? {
        page(pageName)?["tests"]?.arrayValue?.first { $0["fullName"]?.stringValue == fullName }
    }

    /// The last line of stdout: the run's plain summary line.
    var summaryLine: String? { command.stdoutLines.last }
}
