@testable import HybridShellCore
import Testing

@Suite("MediaRelayCheck: where a request to the media relay goes")
struct MediaRelayCheckTests {
    static let token = "0123456789abcdef0123456789ABCDEF"
    static let listener = "127.0.0.1:4711"

    static func check(_ path: String, method: String = "GET", host: String? = listener) -> MediaRelayCheck.Outcome {
        MediaRelayCheck.check(method: method, path: path, host: host, listenerHost: listener)
    }

    @Test(arguments: [("/clip.webm", "/clip.webm"), ("/media/intro%20one.webm", "/media/intro%20one.webm"), ("/a/b/c.ogg", "/a/b/c.ogg")])
    func aWellFormedRequestYieldsItsTokenAndPath(rest: String, path: String) {
        #expect(Self.check("/\(Self.token)\(rest)") == .relay(token: Self.token.lowercased(), path: path))
        #expect(Self.check("/\(Self.token)\(rest)", method: "HEAD") == .relay(token: Self.token.lowercased(), path: path))
    }

    @Test(arguments: [
        ("/\(token)", 400), ("/\(token)/", 400), ("/abc/clip.webm", 400), ("/\(token.dropLast())g/clip.webm", 400), ("/", 400),
        ("/\(token)/../state.json", 403), ("/\(token)/a//b.webm", 403), ("/\(token)/a%2fb.webm", 403), ("/\(token)/a%5cb.webm", 403),
        ("/\(token)/a\\b.webm", 403), ("/\(token)/%2e%2e/x.webm", 403), ("/\(token)/a%00.webm", 403),
    ])
    func malformedOrEscapingPathsAreRefused(path: String, status: Int) {
        guard case .refused(let got, _) = Self.check(path) else { Issue.record("\(path) was relayed"); return }
        #expect(got == status, "\(path)")
    }

    @Test func hostAndMethodAreCheckedFirst() {
        #expect(Self.check("/\(Self.token)/a.webm", host: "evil.example:4711") == .refused(status: 403, reason: "Host \"evil.example:4711\" is not this listener's 127.0.0.1:4711 (DNS-rebinding defence)"))
        guard case .refused(405, _) = Self.check("/\(Self.token)/a.webm", method: "POST") else { Issue.record("POST was relayed"); return }
    }

    @Test func logsNeverShowAWholeToken() {
        #expect(MediaRelayCheck.redacted("/\(Self.token)/clip.webm") == "/012345…/clip.webm")
        #expect(MediaRelayCheck.redacted("/short/clip.webm") == "/short/clip.webm")
    }

    @Test func thePageScriptCarriesItsSettingsAsJSON() {
        let source = MediaRelayScript.source(port: 4711, token: "ab", scheme: "app", host: "demo\"</script>")
        #expect(source.contains(#""port":4711"#) && source.contains(#""token":"ab""#), "\(source.suffix(120))")
        #expect(!source.contains("demo\"</script>"), "a value spliced into the script's source")
    }
}
