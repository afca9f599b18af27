import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
@testable import hybrid_run
import Testing

/// `hybrid-run webdriver`'s decisions, without sockets: which requests reach WebKitWebDriver, and
/// what a new session runs. The real endpoint is tested with Selenium in Tests/webdriver.
@Suite("hybrid-run webdriver, request gate")
struct WebDriverGateTests {
    static let binary = "/opt/hybrid/bin/hybrid-run"
    let gate = WebDriverGate(binary: binary, arguments: ["--handlers", "/srv/mocks.json"],
                             isSameExecutable: { $0 == "/usr/local/bin/hybrid-run" })

    static func head(_ lines: [String]) throws -> HTTPMessageHead {
        try HTTPMessageHead(parsing: Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    static func post(_ path: String = "/session", body: String = "{}", extra: [String] = [],
                     type: String? = "application/json;charset=UTF-8") throws -> HTTPMessageHead {
        try head(["POST \(path) HTTP/1.1", "Host: 127.0.0.1:4444"] + (type.map { ["Content-Type: \($0)"] } ?? [])
                 + ["Content-Length: \(body.utf8.count)"] + extra)
    }

    func refusal(_ head: HTTPMessageHead) -> WebDriverRefusal? {
        if case .refuse(let refusal) = gate.decide(head) { return refusal }
        return nil
    }

    /// What a `fetch(url, {method: "POST", mode: "no-cors", body})` in WebKit sends, and its variants.
    static let browserMade: [(name: String, extra: [String], type: String?)] = [
        ("Origin present", ["Origin: http://evil.example"], "text/plain;charset=UTF-8"),
        ("Origin null", ["Origin: null"], "application/json"),
        ("text/plain without Origin", [], "text/plain;charset=UTF-8"),
        ("form encoding", [], "application/x-www-form-urlencoded"),
        ("no content type", [], nil),
        ("Sec-Fetch-Mode", ["Sec-Fetch-Mode: no-cors"], "application/json"),
    ]

    @Test(arguments: browserMade)
    func browserMadeRequestsAreRefusedWith403(_ request: (name: String, extra: [String], type: String?)) throws {
        let refused = try #require(refusal(try Self.post(extra: request.extra, type: request.type)), "\(request.name)")
        #expect(refused.status == 403)
        #expect(refused.error == "unsupported operation")
        #expect(refused.message.contains("web browser"))
    }

    @Test(arguments: ["evil.example:4444", "evil.example", "127.0.0.1.evil.example", "128.0.0.1:4444", "localhost.evil:1", "[::2]:4444", ""])
    func aHostThatIsNotLoopbackIsRefused(_ host: String) throws {
        let refused = try #require(refusal(try Self.head(["GET /status HTTP/1.1", "Host: \(host)"])))
        #expect(refused.status == 403 || refused.status == 400)
    }

    @Test(arguments: ["127.0.0.1:4444", "localhost:4444", "LOCALHOST", "127.9.8.7", "[::1]:4444", "[::1]"])
    func loopbackHostsAreForwardedUnchanged(_ host: String) throws {
        let head = try Self.head(["GET /status HTTP/1.1", "Host: \(host)", "Accept: application/json"])
        #expect(gate.decide(head) == .forward(head: head.raw, bodyLength: 0, sendContinue: false, newSession: false))
    }

    @Test func aCommandBodyIsForwardedByteForByte() throws {
        let head = try Self.post("/session/abc-123/execute/sync", body: #"{"script":"return 1","args":[]}"#)
        guard case .forward(let forwarded, let length, false, false) = gate.decide(head) else { Issue.record("not forwarded"); return }
        #expect(forwarded == head.raw)
        #expect(length == 31)
    }

    @Test(arguments: [
        ("GET /session/%2e%2e/x HTTP/1.1", 400), ("GET /status?x=1 HTTP/1.1", 400), ("GET /./session HTTP/1.1", 400),
        ("PUT /session HTTP/1.1", 405), ("post /session HTTP/1.1", 405), ("GET /status HTTP/2", 400),
    ])
    func oddRequestLinesAreRefused(_ line: String, _ status: Int) throws {
        #expect(refusal(try Self.head([line, "Host: 127.0.0.1"]))?.status == status)
    }

    @Test func anOversizeBodyIsRefusedBeforeItIsRead() throws {
        let head = try Self.head(["POST /session/a/url HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                                  "Content-Length: \(gate.maximumBodyLength + 1)"])
        #expect(refusal(head)?.status == 413)
    }

    @Test(arguments: [["Transfer-Encoding: chunked"], ["Content-Length: 2", "Content-Length: 2"], ["Content-Length: +2"]])
    func ambiguousFramingIsRefused(_ extra: [String]) throws {
        let head = try Self.head(["POST /session/a/url HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"] + extra)
        #expect(refusal(head)?.status == 400)
    }

    @Test(arguments: ["GET / HTTP/1.1\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost : x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
                      "GET /\r\n\r\n", "GET / HTTP/1.1\r\nHost: \u{0}\r\n\r\n"])
    func malformedHeadsDoNotParse(_ text: String) {
        #expect(throws: HTTPMessageHead.Malformed.self) { try HTTPMessageHead(parsing: Array(text.utf8)) }
    }

    // MARK: new session

    func rewrite(_ body: String) throws -> JSONValue {
        let head = try Self.post(body: body)
        guard case .forward(let forwarded, _, _, true) = gate.decide(head) else { throw WebDriverRefusal.invalid("not a new session") }
        let request = try gate.newSessionRequest(head: forwarded, body: Array(body.utf8)).get()
        let text = String(decoding: request, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        #expect(parts[0].contains("Content-Length: \(parts[1].utf8.count)"))
        #expect(parts[0].components(separatedBy: "Content-Length").count == 2)
        return try JSONParser().parse(parts[1])
    }

    func refusal(newSession body: String) -> WebDriverRefusal? {
        if case .failure(let refusal) = gate.rewriteNewSession(Array(body.utf8)) { return refusal }
        return nil
    }

    @Test func aForeignBinaryIsRefusedAndNothingIsForwarded() {
        let body = #"{"capabilities":{"alwaysMatch":{"webkitgtk:browserOptions":{"binary":"/usr/bin/touch","args":["/tmp/pwned"]}}}}"#
        let refused = refusal(newSession: body)
        #expect(refused?.error == "session not created")
        #expect(refused?.message.contains("/usr/bin/touch") == true)
        let inFirstMatch = #"{"capabilities":{"firstMatch":[{},{"webkitgtk:browserOptions":{"binary":"/bin/sh"}}]}}"#
        #expect(refusal(newSession: inFirstMatch)?.error == "session not created")
    }

    @Test func theBinaryIsPinnedAndTheSessionFlagsAdded() throws {
        let body = #"{"capabilities":{"alwaysMatch":{"browserName":"hybrid-run","webkitgtk:browserOptions":{"binary":"/usr/local/bin/hybrid-run","args":["--automation","--size=800x600"]}}}}"#
        let options = try #require(try rewrite(body)["capabilities"]?["alwaysMatch"]?["webkitgtk:browserOptions"])
        #expect(options["binary"] == .string(Self.binary))
        #expect(options["args"] == ["--automation", "--handlers", "/srv/mocks.json", "--size=800x600"])
        #expect(try rewrite(body)["capabilities"]?["alwaysMatch"]?["browserName"] == "hybrid-run")
    }

    @Test func noBrowserOptionsGetsThemAddedInsteadOfMiniBrowser() throws {
        let always = try rewrite(#"{"capabilities":{"firstMatch":[{"browserName":"hybrid-run"}]}}"#)["capabilities"]?["alwaysMatch"]
        #expect(always?["webkitgtk:browserOptions"]?["binary"] == .string(Self.binary))
        #expect(always?["webkitgtk:browserOptions"]?["args"]?[0] == "--automation")
    }

    @Test(arguments: [
        ("{\"capabilities\":", "not valid JSON"),
        ("{\"capabilities\":{},\"capabilities\":{}}", "duplicate key"),
        ("[1]", "not an object"),
        ("{\"desiredCapabilities\":{}}", "capabilities"),
        ("{\"capabilities\":{\"alwaysMatch\":[]}}", "alwaysMatch"),
        ("{\"capabilities\":{\"alwaysMatch\":{\"webkitgtk:browserOptions\":{\"args\":[1]}}}}", "array of strings"),
        ("{\"capabilities\":{\"alwaysMatch\":{\"webkitgtk:browserOptions\":{\"targetAddress\":\"1.2.3.4:5\"}}}}", "targetAddress"),
    ])
    func malformedNewSessionBodiesAreRefused(_ body: String, _ reason: String) throws {
        let refused = try #require(refusal(newSession: body))
        #expect(refused.message.contains(reason), "\(refused.message)")
    }

    @Test func aRefusalIsAWebDriverErrorResponse() throws {
        let text = String(decoding: WebDriverRefusal.browserMade("test").response, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        #expect(parts[0].hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
        #expect(parts[0].contains("Content-Type: application/json"))
        let value = try JSONParser().parse(parts[1])["value"]
        #expect(value?["error"] == "unsupported operation")
        #expect(value?["message"]?.stringValue?.contains("test") == true)
    }

    @Test(arguments: [(["webdriver", "--host", "0.0.0.0"], "loopback"), (["webdriver", "--port", "70000"], "--port"),
                      (["webdriver", "--handlers", "/nonexistent.json"], "handlers"),
                      (["webdriver", "--port", "0", "--webkit-webdriver", "/nonexistent"], "not an executable")])
    func misuseOfTheCommandIsAnErrorAtOnce(_ arguments: [String], _ reason: String) async throws {
        let run = try await CommandLineRun.run(arguments, deadline: .seconds(30))
        #expect(run.status == 4 || run.status == 2)
        #expect(run.stderr.contains("hybrid-run: error: "))
        #expect(run.stderr.contains(reason), "\(run.stderr)")
    }

    @Test func expectContinueIsAnsweredHereAndNotForwarded() throws {
        let head = try Self.post("/session/a/url", body: "{}", extra: ["Expect: 100-continue"])
        guard case .forward(let forwarded, 2, true, false) = gate.decide(head) else { Issue.record("not forwarded"); return }
        #expect(!String(decoding: forwarded, as: UTF8.self).contains("Expect"))
    }
}
