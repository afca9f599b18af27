import Foundation
import Testing

/// Issue 12, item 8: `hybrid-run` is one ArgumentParser root with subcommands (`run`, the URL form,
/// is the default), so help, completion, version and error hints agree. No page opens in these.
@Suite("hybrid-run subcommands")
struct SubcommandCommandLineTests {
    @Test func helpListsTheSubcommands() async throws {
        for arguments in [["help"], ["--help"]] {
            let run = try await CommandLineRun.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            for name in ["test", "kiosk", "ctl", "package"] {
                #expect(run.stdout.contains("\n  \(name) "), "\(arguments) lacks \(name): \(run.stdout)")
            }
            // The URL form's flags are what most readers look for.
            #expect(run.stdout.contains("--url"))
        }
    }

    @Test(arguments: [["help", "test"], ["test", "--help"], ["test", "-h"]])
    func helpForASubcommand(arguments: [String]) async throws {
        let run = try await CommandLineRun.run(arguments)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("--workers"))
        #expect(run.stdout.contains("hybrid-run test"))
        #expect(!run.stdout.contains("hybrid-run hybrid-run"))
        #expect(run.stderr.isEmpty)
    }

    @Test func helpForTheOtherSubcommands() async throws {
        for (name, flag) in [("kiosk", "--control-socket"), ("ctl", "--socket"), ("package", "keygen"), ("run", "--exit-after")] {
            let run = try await CommandLineRun.run(["help", name])
            #expect(run.status == 0)
            #expect(run.stdout.contains(flag), "help \(name) lacks \(flag)")
        }
    }

    /// ArgumentParser answers `help` with a name that is no command with the root's help and 0.
    @Test(arguments: [(["help", "nope"], "no help for \"nope\": hybrid-run has no command nope (commands: run, test, kiosk, ctl, package, webdriver, doctor, mcp, init, dev, bundle, app)"),
                      (["help", "package", "nope"], "no help for \"nope\": hybrid-run package has no command nope (commands: keygen, ")])
    func helpForAnUnknownCommandIsAUsageError(arguments: [String], message: String) async throws {
        let run = try await CommandLineRun.run(arguments)
        #expect(run.status == 4, "stdout: \(run.stdout)")
        #expect(run.stderr.contains("hybrid-run: error: \(message)"), "stderr: \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func bashCompletionKnowsTheSubcommandsAndTheirOptions() async throws {
        let run = try await CommandLineRun.run(["--generate-completion-script", "bash"])
        #expect(run.status == 0)
        for word in ["test", "kiosk", "ctl", "package", "--workers", "--reporter", "--control-socket", "--socket", "--exit-after", "--url"] {
            #expect(run.stdout.contains(word), "completion lacks \(word)")
        }
    }

    /// Completes as bash would (the script's function called with the words of a line): the
    /// subcommands, their flags, and the URL form's flags right after `hybrid-run`.
    @Test func bashCompletesWhatAReaderTypes() async throws {
        let generated = try await CommandLineRun.run(["--generate-completion-script", "bash"])
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-run-completion-\(UUID().uuidString).bash")
        try Data(generated.stdout.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let cases = [("hybrid-run te", "test"), ("hybrid-run test --wo", "--workers"), ("hybrid-run kiosk --control", "--control-socket"),
                     ("hybrid-run --ur", "--url"), ("hybrid-run --url x --dia", "--dialogs"), ("hybrid-run --dialogs ", "accept dismiss")]
        let driver = """
            source "$1"
            comp() { COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$1"; [[ "$1" == *" " ]] && COMP_WORDS+=("")
              COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _hybrid-run hybrid-run "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
              echo "${COMPREPLY[*]}"; }
            """ + "\n" + cases.map { "comp '\($0.0)'" }.joined(separator: "\n")
        // Through CommandLineRun's close-on-exec pipes, read off the cooperative threads: with
        // Foundation's `Pipe`, a WebKit process another test started meanwhile inherited the write
        // end, the read never saw end-of-file, and the whole parallel pass hung on it.
        let bash = try await CommandLineRun.run(["-c", driver, "bash", script.path], executable: "/bin/bash",
                                                deadline: .seconds(30))
        let lines = bash.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(bash.status == 0, "stderr: \(bash.stderr)")
        for (index, (line, expected)) in cases.enumerated() {
            #expect(index < lines.count && lines[index] == expected, "'\(line)' completed as '\(index < lines.count ? String(lines[index]) : "")'")
        }
    }

    @Test func everySubcommandPrintsTheVersion() async throws {
        let root = try await CommandLineRun.run(["--version"])
        #expect(root.status == 0)
        #expect(root.stdout.hasPrefix("hybrid-run "))
        for name in ["test", "kiosk", "ctl", "run"] {
            let run = try await CommandLineRun.run([name, "--version"])
            #expect(run.status == 0, "\(name) --version: \(run.stderr)")
            #expect(run.stdout == root.stdout)
        }
    }

    @Test(arguments: [
        (["test", "--bogus"], "Unknown option '--bogus'", "see hybrid-run test --help"),
        (["kiosk", "--bogus"], "Unknown option '--bogus'", "see hybrid-run kiosk --help"),
        (["ctl", "--bogus", "status"], "Unknown option '--bogus'", "see hybrid-run ctl --help"),
        (["--bogus", "debug"], "Unknown option '--bogus'", "see hybrid-run --help"),
        (["--url", "pages/demo/index.html", "--bogus", "debug"], "Unknown option '--bogus'", "see hybrid-run --help"),
        (["--url", "pages/demo/index.html", "--dir-handlr", "x"], "Unknown option '--dir-handlr'", "see hybrid-run --help"),
        (["test", "--workers", "2", "--grep", "a", "--grep-invert", "b"], "give --grep or --grep-invert, not both", "see hybrid-run test --help"),
        (["kiosk"], "give the app with --url", "see hybrid-run kiosk --help"),
        (["pages/demo/index.html", "--url", "pages/demo/index.html"], "give the page once", "see hybrid-run --help"),
        // ArgumentParser would report the missing <dir> first.
        (["package", "pack", "--bogus"], "Unknown option '--bogus'", "see hybrid-run package pack --help"),
        (["package", "pack"], "Missing expected argument '<dir>'", "see hybrid-run package pack --help"),
    ] as [([String], String, String)])
    func usageErrorsNameTheOptionAndTheRightHelp(arguments: [String], message: String, hint: String) async throws {
        let run = try await CommandLineRun.run(arguments)
        #expect(run.status == 4)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "stderr: \(run.stderr)")
        #expect(lines.first?.hasPrefix("hybrid-run: error: ") == true)
        #expect(lines.first?.contains(message) == true, "stderr: \(run.stderr)")
        #expect(lines.last?.hasPrefix("Usage: ") == true)
        #expect(lines.last?.hasSuffix(hint) == true, "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("hybrid-run hybrid-run"))
        #expect(!run.stderr.contains("give the page once") || message == "give the page once")
        #expect(run.stdout.isEmpty)
    }

    /// A subcommand name is never read as a page: `hybrid-run test` with no pages is the test
    /// command's own complaint, not "no such file: test".
    @Test func aSubcommandNameIsNotAPage() async throws {
        let run = try await CommandLineRun.run(["test", "--list", "pages/fixtures/does-not-exist/"])
        #expect(!run.stderr.contains("no such file: test"))
        #expect(!run.stderr.contains("Unexpected argument"))
        #expect(run.status != 0)
    }
}
