import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run webdriver`: a WebDriver endpoint for `hybrid-run --automation` that a web page cannot
/// use. The flags only gather values; ``WebDriverServer`` starts WebKitWebDriver and the proxy.
struct HybridRunWebDriver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webdriver",
        abstract: "Serve WebDriver for hybrid-run sessions, refusing requests that web pages make.",
        usage: "hybrid-run webdriver [--port N] [--host 127.0.0.1] [--handlers FILE] [options]",
        discussion: """
            Starts WebKitWebDriver on a private loopback port and serves the WebDriver endpoint in \
            front of it. Requests a web browser makes (an Origin or Sec-Fetch-* header, a body not \
            declared application/json, a Host that is not loopback) are refused with a WebDriver \
            error; every new session runs this hybrid-run with --automation and the session flags \
            below, whatever binary the client names (another binary is refused). Point any WebDriver \
            client at the printed URL; a bare WebKitWebDriver lets any web page on the machine run \
            any program (see docs/webdriver.md).

            Examples:
              xvfb-run -a hybrid-run webdriver --port 4444
              xvfb-run -a hybrid-run webdriver --port 0 --handlers mocks.json

            It prints "hybrid-run webdriver: listening on http://HOST:PORT/" on stdout once it \
            serves, and runs until SIGINT or SIGTERM; WebKitWebDriver and its browsers end with it.

            Exit codes: 0 stopped by a signal · 2 WebKitWebDriver failed or ended · 4 usage error.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The port to serve on; 0 picks a free one (printed). Example: --port 4444", valueName: "n"))
    var port: Int = 4444

    @Option(name: .long, help: ArgumentHelp("The loopback address to serve on (127.0.0.0/8 only). Example: --host 127.0.0.1", valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp(
        "Every session's fake native handlers (hybrid-run --handlers). Example: --handlers mocks.json", valueName: "file"))
    var handlers: String?

    @Option(name: .long, help: ArgumentHelp(
        "Give only documents from these origins a working bridge in every session (repeatable). Example: --allow-origin 'https://*.example.org'",
        valueName: "pattern"))
    var allowOrigin: [String] = []

    @Option(name: .long, help: ArgumentHelp("Every session's initial window size. Example: --size 1024x768", valueName: "WxH"))
    var size: String?

    @Option(name: .long, help: ArgumentHelp("The WebKitWebDriver to start. Example: --webkit-webdriver /usr/bin/WebKitWebDriver", valueName: "path"))
    var webkitWebdriver = "/usr/bin/WebKitWebDriver"

    /// The arguments every session's `hybrid-run --automation` gets, checked here so that a mistake
    /// is one usage error now instead of a refused session each time.
    func sessionArguments() throws -> [String] {
        var arguments: [String] = []
        if let handlers {
            _ = try MockHandlers.load(path: handlers)
            arguments += ["--handlers", URL(fileURLWithPath: handlers).standardizedFileURL.path]
        }
        for pattern in allowOrigin {
            _ = try OriginPattern(parsing: pattern)
            arguments += ["--allow-origin", pattern]
        }
        if let size {
            _ = try ViewportSize.parse(size)
            arguments += ["--size", size]
        }
        return arguments
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535, not \(port)") }
        guard WebDriverGate.isLoopbackHost(host), !host.hasPrefix("["), host != "localhost" else {
            throw ValidationError("--host takes an IPv4 loopback address such as 127.0.0.1, not \(JSONValue.quoted(host)): a WebDriver endpoint runs programs and must not be reachable from other machines")
        }
    }

    /// Runs until a signal; returns the exit status.
    func execute() -> Int32 {
        let errors = OutputLines.standardError
        let arguments: [String]
        do { arguments = try sessionArguments() } catch {
            errors.write("hybrid-run: error: \(error)")
            return ExitStatus.usage.rawValue
        }
        return WebDriverServer(host: host, port: UInt16(port), webKitWebDriver: webkitWebdriver, sessionArguments: arguments).run()
    }
}
