import HybridShell
@testable import hybrid_run
import Testing

@Suite("Resolving --url input (pure)")
struct PageLocationTests {
    let files: [String: PageLocation.FileKind] = [
        "/srv/app/index.html": .file, "/srv/app": .directory, "/srv/app/": .directory,
        "/srv/empty": .directory, "/srv/a b/ü.html": .file,
    ]

    func resolve(_ input: String) throws(ShellError) -> String {
        try PageLocation.resolve(input, currentDirectory: "/srv") { files[$0] }
    }

    /// Issue 31, item 20: scheme and host as WebKit reports them, so allow-lists and origin
    /// checks that compare with WebKit's URL match (an `HTTP://` kiosk home matched nothing).
    @Test(arguments: [
        ("HTTP://127.0.0.1:8080/Fixtures/Page.html?Q=A#F", "http://127.0.0.1:8080/Fixtures/Page.html?Q=A#F"),
        ("HttpS://Example.ORG/Path", "https://example.org/Path"),
        ("http://example.org/a%20b?x=%41", "http://example.org/a%20b?x=%41"),
    ])
    func webAddressesHaveALowerCaseSchemeAndHost(input: String, expected: String) throws {
        #expect(try resolve(input) == expected)
    }

    @Test(arguments: [
        ("http://example.org/a?b=c#d", "http://example.org/a?b=c#d"),
        ("HTTPS://example.org/", "https://example.org/"),
        ("about:blank", "about:blank"),
        ("data:text/html,<p>hi</p>", "data:text/html,<p>hi</p>"),
        ("app/index.html", "file:///srv/app/index.html"),
        ("./app/../app/index.html", "file:///srv/app/index.html"),
        ("/srv/app/index.html", "file:///srv/app/index.html"),
        ("app", "file:///srv/app/index.html"),
        ("file:///srv/app/index.html", "file:///srv/app/index.html"),
        ("  app/index.html\n", "file:///srv/app/index.html"),
        ("a b/ü.html", "file:///srv/a%20b/%C3%BC.html"),
    ])
    func validInputs(input: String, expected: String) throws {
        #expect(try resolve(input).lowercased() == expected.lowercased())
    }

    @Test(arguments: [
        ("", ShellError.invalidArgument("the page address is empty")),
        ("missing.html", .fileNotFound("/srv/missing.html")),
        ("empty", .fileNotFound("/srv/empty is a directory without an index.html")),
        ("example.org", .fileNotFound("/srv/example.org (for a web address, include the scheme: http://example.org)")),
        ("ftp://x/", .invalidURL("ftp://x/", reason: "unsupported scheme 'ftp' (use one of: http, https, file, about, data)")),
        ("http:///path", .invalidURL("http:///path", reason: "it has no host")),
        ("file://server/share/x.html", .invalidURL("file://server/share/x.html", reason: "file URLs on another host are not supported")),
        ("http://a\u{7}b/", .invalidURL("http://a\u{7}b/", reason: "it contains control characters")),
    ])
    func invalidInputs(input: String, expected: ShellError) {
        #expect(throws: expected) { try resolve(input) }
    }

    @Test(arguments: [("load", ExitCondition.load), ("close", .close), ("2", .duration(.seconds(2))), ("0.25", .duration(.milliseconds(250)))])
    func exitConditions(text: String, expected: ExitCondition) throws {
        #expect(try ExitCondition(parsing: text) == expected)
    }

    @Test(arguments: ["", "soon", "-1", "0", "nan", "inf"])
    func badExitConditions(text: String) {
        #expect(throws: ShellError.self) { try ExitCondition(parsing: text) }
    }
}
