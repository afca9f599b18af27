import HybridShell
@testable import hybrid_run
import Testing

@Suite("Control requests (pure)")
struct ControlRequestTests {
    @Test(arguments: [
        ("status", ControlRequest.status),
        ("reload", .reload),
        ("home", .home),
        ("quit", .quit),
        ("open https://example.org/", .open("https://example.org/")),
        ("open\thttps://example.org/a%20b", .open("https://example.org/a%20b")),
        ("screenshot /tmp/shot.png", .screenshot(path: "/tmp/shot.png")),
        ("screenshot /tmp/my  front page.png", .screenshot(path: "/tmp/my  front page.png")),
        ("  \tstatus \t ", .status),
        ("status\r", .status),
        ("open  https://example.org/ \r", .open("https://example.org/")),
        (" screenshot \t relative/shot.png  ", .screenshot(path: "relative/shot.png")),
    ] as [(String, ControlRequest)])
    func parsesEveryCommand(line: String, expected: ControlRequest) throws {
        #expect(try ControlRequest.parse(line) == expected)
    }

    @Test(arguments: [
        ("", "empty request: give a command (status, open URL, reload, home, screenshot FILE.png, quit)"),
        (" \t ", "empty request: give a command (status, open URL, reload, home, screenshot FILE.png, quit)"),
        ("\r", "empty request: give a command (status, open URL, reload, home, screenshot FILE.png, quit)"),
        ("frobnicate", #"unknown command "frobnicate": the commands are status, open URL, reload, home, screenshot FILE.png, quit"#),
        ("STATUS", #"unknown command "STATUS": the commands are status, open URL, reload, home, screenshot FILE.png, quit"#),
        ("open", "open needs a URL: open URL"),
        ("open \t ", "open needs a URL: open URL"),
        ("open https://a/ https://b/", "open takes one argument, a URL, not 2 words (write a space in a URL as %20)"),
        ("screenshot", "screenshot needs a file: screenshot FILE.png"),
        ("screenshot   \r", "screenshot needs a file: screenshot FILE.png"),
        ("status now", #"status takes no argument, got "now""#),
        ("reload hard", #"reload takes no argument, got "hard""#),
        ("home page 2", #"home takes no argument, got "page 2""#),
        ("quit\tnow ", #"quit takes no argument, got "now""#),
        ("status\nquit", "the request contains a control character (U+000A); a request is one line of text"),
        ("status\r\r", "the request contains a control character (U+000D); a request is one line of text"),
        ("screenshot a\u{0}.png", "the request contains a control character (U+0000); a request is one line of text"),
    ] as [(String, String)])
    func rejectsMalformedRequestsPrecisely(line: String, message: String) {
        #expect(throws: ShellError.invalidArgument(message)) { try ControlRequest.parse(line) }
    }

    @Test(arguments: [
        ControlRequest.status, .reload, .home, .quit, .open("https://example.org/?q=1#x"),
        .screenshot(path: "/tmp/with space.png"),
    ])
    func lineReadsBackAsTheSameRequest(request: ControlRequest) throws {
        #expect(try ControlRequest.parse(request.line) == request)
    }

    @Test func relativeScreenshotPathsAreMadeAbsolute() {
        #expect(ControlRequest.screenshot(path: "shots/a.png").resolvingPaths(against: "/home/k") == .screenshot(path: "/home/k/shots/a.png"))
        #expect(ControlRequest.screenshot(path: "a.png").resolvingPaths(against: "/") == .screenshot(path: "/a.png"))
        #expect(ControlRequest.screenshot(path: "/abs/a.png").resolvingPaths(against: "/home/k") == .screenshot(path: "/abs/a.png"))
        #expect(ControlRequest.open("page.html").resolvingPaths(against: "/home/k") == .open("page.html"))
    }

    @Test func defaultSocketPathPrefersTheRuntimeDirectory() {
        #expect(ControlSocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
            == "/run/user/1000/hybrid-run/kiosk.sock")
        #expect(ControlSocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"], userID: 1000)
            == "/run/user/1000/hybrid-run/kiosk.sock")
        #expect(ControlSocketPath.defaultPath(environment: [:], userID: 1000) == "/tmp/hybrid-run-1000/kiosk.sock")
        #expect(ControlSocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": ""], userID: 7) == "/tmp/hybrid-run-7/kiosk.sock")
        #expect(ControlSocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "relative"], userID: 7) == "/tmp/hybrid-run-7/kiosk.sock")
    }
}
