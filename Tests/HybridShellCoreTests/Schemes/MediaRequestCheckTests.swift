@testable import HybridShellCore
import Testing

@Suite("MediaRequestCheck: Host, method and path of a loopback media request")
struct MediaRequestCheckTests {
    static let token = "0123456789abcdef0123456789ABCDEF"
    static let listener = "127.0.0.1:4711"

    @Test func aWellFormedRequestYieldsItsLowercaseToken() {
        for method in ["GET", "HEAD"] {
            #expect(MediaRequestCheck.check(method: method, path: "/\(Self.token)/clip%20one.webm", host: Self.listener, listenerHost: Self.listener)
                    == .token(Self.token.lowercased()))
        }
    }

    @Test(arguments: [
        ("evil.example:4711", 403), ("localhost:4711", 403), ("127.0.0.1:4712", 403), ("127.0.0.1", 403), ("", 403),
    ])
    func aForeignHostIsRefusedAsDNSRebinding(host: String, status: Int) {
        guard case .refused(let got, let reason) = MediaRequestCheck.check(method: "GET", path: "/\(Self.token)/a.webm", host: host, listenerHost: Self.listener) else {
            Issue.record("\(host) was accepted"); return
        }
        #expect(got == status)
        #expect(reason.contains("DNS-rebinding"), "\(reason)")
    }

    @Test func aMissingHostIsRefused() {
        #expect(MediaRequestCheck.check(method: "GET", path: "/\(Self.token)/a.webm", host: nil, listenerHost: Self.listener)
                == .refused(status: 403, reason: "Host (none) is not this listener's 127.0.0.1:4711 (DNS-rebinding defence)"))
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get"])
    func methodsOtherThanGetAndHeadAreRefused(method: String) {
        #expect(MediaRequestCheck.check(method: method, path: "/\(Self.token)/a.webm", host: Self.listener, listenerHost: Self.listener)
                == .refused(status: 405, reason: "method \(method) is not allowed (GET and HEAD only)"))
    }

    @Test(arguments: [
        ("/\(token)/..%2f..%2fetc%2fpasswd", 403), ("/\(token)/%2e%2e/x", 403), ("/\(token)/a%00.webm", 403),
        ("/\(token)/a%5cb", 403), ("/\(token)/a\\b", 403), ("/\(token)//a", 403), ("/\(token)/../a", 403),
        ("/\(token)/./a", 403), ("/\(token)/A%2Fb", 403),
        ("/\(token)", 400), ("/\(token)/", 400), ("/\(token)/a/b", 400), ("/short/a.webm", 400),
        ("/\(String(repeating: "g", count: 32))/a", 400), ("no-slash", 400), ("/", 400),
    ])
    func badPathsAreRefused(path: String, status: Int) {
        guard case .refused(let got, let reason) = MediaRequestCheck.check(method: "GET", path: path, host: Self.listener, listenerHost: Self.listener) else {
            Issue.record("\(path) was accepted"); return
        }
        #expect(got == status, "\(path): \(reason)")
    }
}
