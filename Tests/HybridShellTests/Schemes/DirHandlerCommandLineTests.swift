import Foundation
import HybridShell
import Testing

@Suite("hybrid-run --dir-handler and dir_handlers, end to end")
struct DirHandlerCommandLineTests {
    @Test func servesADirectoryAndTheBridgeTrustsItsOrigin() async throws {
        let run = try await CommandLineRun.run(["--dir-handler", "app:pages/fixtures/schemes", "--url", "app:///bridge.html",
                                                "--exit-after", "close", "--timeout", "20"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("CONSOLE LOG bridge on app://: WebKitGTK"), "\(run.stdout)\n\(run.stderr)")
    }

    @Test func theConfigKeyIsRelativeToTheConfigFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dir-handler-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dist"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<script>console.log('served from ' + location.href)</script>".utf8)
            .write(to: directory.appendingPathComponent("dist/index.html"))
        let config = directory.appendingPathComponent("shell.toml")
        try Data("dir_handlers = [\"site:./dist\"]\n".utf8).write(to: config)
        let run = try await CommandLineRun.run(["--config", config.path, "--url", "site:///index.html", "--exit-after", "load"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("CONSOLE LOG served from site:///index.html"), "\(run.stdout)\n\(run.stderr)")
    }

    @Test(arguments: [
        (["--dir-handler", "app:/no/such/dir", "--url", "app:///index.html"], "no such file: /no/such/dir"),
        (["--dir-handler", "https:pages", "--url", "https://x/"], "cannot be registered"),
        (["--dir-handler", "nocolon", "--url", "app:///index.html"], "SCHEME:PATH"),
        (["--dir-handler", "app:pages", "--dir-handler", "app:bench", "--url", "app:///index.html"], "registered twice"),
        (["--url", "app:///index.html"], "unsupported scheme 'app'"),
    ])
    func badHandlersAreUsageErrors(arguments: [String], message: String) async throws {
        let run = try await CommandLineRun.run(arguments + ["--exit-after", "load"])
        #expect(run.status == 4, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
