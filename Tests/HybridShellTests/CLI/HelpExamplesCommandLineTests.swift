import Foundation
import Testing

/// Issue 12, item 13: the examples in `--help` are commands a reader can copy, so at 80 columns
/// none is wrapped in the middle (ArgumentParser re-wraps discussion lines longer than the screen).
@Suite("hybrid-run help examples")
struct HelpExamplesCommandLineTests {
    static let commandStarts = ["hybrid-run ", "xvfb-run ", "(cd "]

    @Test(arguments: [["--help"], ["run", "--help"], ["test", "--help"], ["kiosk", "--help"], ["ctl", "--help"], ["package", "--help"], ["webdriver", "--help"], ["mcp", "--help"],
                      ["init", "--help"], ["dev", "--help"], ["bundle", "--help"], ["app", "--help"]])
    func everyExampleLineIsACompleteCommand(arguments: [String]) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        let run = try await CommandLineRun.run(arguments, environment: environment)
        #expect(run.status == 0)
        let examples = Self.exampleLines(run.stdout)
        #expect(!examples.isEmpty, "no Examples: block in \(arguments)")
        var continued = false
        for line in examples {
            let text = line.trimmingCharacters(in: .whitespaces)
            #expect(line.count <= 80, "longer than the screen: \(line)")
            #expect(continued || Self.commandStarts.contains { text.hasPrefix($0) }, "not a whole command: '\(line)' in \(arguments)")
            continued = text.hasSuffix(" \\")
        }
        #expect(!continued, "the last example ends with a continuation")
    }

    /// The lines of every `Examples:` or `Walkthrough:` block, up to the blank line that ends it.
    static func exampleLines(_ help: String) -> [String] {
        var lines: [String] = [], inside = false
        for line in help.components(separatedBy: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text == "Examples:" || text == "Walkthrough:" { inside = true; continue }
            if text.isEmpty { inside = false }
            if inside { lines.append(line) }
        }
        return lines
    }
}
