import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// The loopback listener behind ``FileShares/mediaURL(for:)``, spoken to with a raw HTTP client:
/// ranges, HEAD, validity (unknown, revoked, expired, ended session), Host, methods, paths, and a
/// client that hangs up mid-body. No web view: these are the listener's own answers.
@Suite("Media shares: the loopback HTTP listener")
@EngineActor
struct MediaShareListenerTests {
    let log = LogCapture()
    fileprivate let clock = MediaTestClock()
    let shares: FileShares
    let clip = Fixtures.page("schemes/clip.webm").path
    let clipBytes: Data

    init() throws {
        let clock = clock
        shares = FileShares(logger: log.logger(), now: { clock.now })
        clipBytes = try Data(contentsOf: URL(fileURLWithPath: clip))
    }

    /// A 32 MB "video" in a directory of its own (the caller removes the directory): big enough
    /// that the body is still being sent when a test cuts it.
    static func bigClip() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let big = directory.appendingPathComponent("big.mp4").path
        try Data(repeating: 7, count: 32 << 20).write(to: URL(fileURLWithPath: big))
        return big
    }

    /// The media URL's port and path, for a raw request.
    private func target(_ mediaURL: String) throws -> (port: Int, path: String) {
        let components = try #require(URLComponents(string: mediaURL))
        return (try #require(components.port), components.percentEncodedPath)
    }

    private func get(_ mediaURL: String, method: String = "GET", headers: [String] = [], host: String? = nil, path: String? = nil) async throws -> RawHTTP.Response {
        let (port, ownPath) = try target(mediaURL)
        let lines = ["\(method) \(path ?? ownPath) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")"] + headers
        return try await RawHTTP.send(port: port, lines.joined(separator: "\r\n"))
    }

    @Test func onlyAudioAndVideoFileSharesGetALoopbackURLWithTheSameToken() throws {
        let url = try shares.share(file: clip, origin: "app://")
        let media = try #require(try shares.mediaURL(for: url))
        let token = String(url.dropFirst("hybrid-file://".count).prefix(32))
        #expect(media.hasPrefix("http://127.0.0.1:"), "\(media)")
        #expect(media.hasSuffix("/\(token)/clip.webm"), "\(media)")
        #expect(shares.media.port != nil)
        let page = try shares.share(file: Fixtures.page("schemes/index.html").path, origin: "app://")
        #expect(try shares.mediaURL(for: page) == nil)
        let stream = try shares.share(stream: { AsyncThrowingStream { $0.finish() } }, name: "a.webm", origin: "app://")
        #expect(try shares.mediaURL(for: stream) == nil)
        #expect(try shares.mediaURL(for: "hybrid-file://" + String(repeating: "0", count: 32) + "/x.webm") == nil)
        shares.revokeAll()
    }

    @Test func rangesHeadAndWholeBodiesAreAnsweredExactly() async throws {
        let media = try #require(try shares.mediaURL(for: try shares.share(file: clip, origin: "app://")))
        let size = clipBytes.count
        let whole = try await get(media)
        #expect(whole.status == 200)
        #expect(whole.headers["content-length"] == String(size))
        #expect(whole.headers["content-type"] == "video/webm")
        #expect(whole.headers["accept-ranges"] == "bytes")
        #expect(whole.body == clipBytes)
        let cases: [(range: String, first: Int, last: Int)] = [("bytes=100-199", 100, 199), ("bytes=5000-", 5000, size - 1),
                                                               ("bytes=-100", size - 100, size - 1), ("bytes=0-0", 0, 0)]
        for (range, first, last) in cases {
            let partial = try await get(media, headers: ["Range: \(range)"])
            #expect(partial.status == 206, "\(range): \(partial)")
            #expect(partial.headers["content-range"] == "bytes \(first)-\(last)/\(size)", "\(range)")
            #expect(partial.headers["content-length"] == String(last - first + 1), "\(range)")
            #expect(partial.body == clipBytes[first...last], "\(range)")
        }
        let unsatisfiable = try await get(media, headers: ["Range: bytes=\(size)-"])
        #expect(unsatisfiable.status == 416)
        #expect(unsatisfiable.headers["content-range"] == "bytes */\(size)")
        let head = try await get(media, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(size))
        #expect(head.body.isEmpty)
        let headRange = try await get(media, method: "HEAD", headers: ["Range: bytes=10-19"])
        #expect(headRange.status == 206)
        #expect(headRange.headers["content-length"] == "10")
        #expect(headRange.body.isEmpty)
        #expect(log.contains("Range bytes=5000- → 206 bytes 5000-"), "\(log.lines)")
        shares.revokeAll()
    }

    @Test func badRequestsGetAPreciseStatusAndALogLine() async throws {
        let media = try #require(try shares.mediaURL(for: try shares.share(file: clip, origin: "app://")))
        let (port, path) = try target(media)
        let token = String(path.dropFirst().prefix(32))
        let unknown = try await get(media, path: "/" + String(repeating: "ab", count: 16) + "/clip.webm")
        #expect(unknown.status == 404)
        #expect(log.contains("unknown or revoked token in /ababab…/clip.webm"), "\(log.lines)")
        #expect(!log.lines.joined().contains(token), "the token itself is never logged")
        let foreign = try await get(media, host: "attacker.example:\(port)")
        #expect(foreign.status == 403)
        #expect(log.contains("Host \"attacker.example:\(port)\" is not this listener's 127.0.0.1:\(port) (DNS-rebinding defence)"), "\(log.lines)")
        for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
            let refused = try await get(media, method: method, headers: ["Content-Length: 0"])
            #expect(refused.status == 405, "\(method): \(refused)")
            #expect(refused.headers["allow"] == "GET, HEAD")
        }
        #expect(log.contains("refused DELETE"), "\(log.lines)")
        // libsoup's parser refuses `%00` and `..%2f` itself (400, logged by the listener), and GUri
        // resolves `%2e%2e` segments before the check sees the path (then it is no /<token>/<name>).
        let traversals = ["/\(token)/..%2f..%2fetc%2fpasswd", "/\(token)/%2e%2e/%2e%2e/etc/passwd", "/\(token)/a%00.webm",
                          "/\(token)/a%5c..%5cb", "/\(token)/a%2fb", "/\(token)/x/y", "/\(token)//clip.webm"]
        for bad in traversals {
            let before = log.lines.count
            let refused = try await get(media, path: bad)
            #expect(refused.status == 400 || refused.status == 403, "\(bad): \(refused)")
            #expect(refused.body.count < 200, "an error text, never the file: \(bad)")
            #expect(await log.wait(for: "refused", after: before), "no log line for \(bad): \(log.lines)")
        }
        let otherOrigin = try await get(media, headers: ["Origin: https://evil.example"])
        #expect(otherOrigin.status == 403)
        let sameOrigin = try await get(media, headers: ["Origin: app://", "Range: bytes=0-3"])
        #expect(sameOrigin.status == 206)
        #expect(sameOrigin.headers["access-control-allow-origin"] == "app://")
        shares.revokeAll()
    }

    @Test func revokedExpiredAndEndedSessionSharesAreRefused() async throws {
        let revoked = try shares.share(file: clip, origin: "app://")
        let revokedMedia = try #require(try shares.mediaURL(for: revoked))
        let kept = try #require(try shares.mediaURL(for: try shares.share(file: clip, origin: "app://")))
        #expect(try await get(revokedMedia).status == 200)
        shares.revoke(revoked)
        #expect(try await get(revokedMedia).status == 404)

        let sessionMedia = try #require(try shares.mediaURL(for: try shares.share(file: clip, origin: "app://", session: "s1")))
        shares.endSession("s1")
        #expect(try await get(sessionMedia).status == 404)

        let shortMedia = try #require(try shares.mediaURL(for: try shares.share(file: clip, origin: "app://", lifetime: .seconds(5))))
        #expect(try await get(shortMedia, method: "HEAD").status == 200)
        clock.advance(.seconds(6))
        #expect(try await get(shortMedia).status == 404)
        #expect(log.contains("expired share"), "\(log.lines)")
        #expect(try await get(kept, method: "HEAD").status == 200, "other shares stay valid")
        shares.revokeAll()
    }

    @Test func theListenerStartsOnTheFirstMediaURLAndStopsWhenNoneIsLeft() async throws {
        #expect(shares.media.port == nil, "nothing listens before a media URL is made")
        let first = try shares.share(file: clip, origin: "app://")
        let second = try shares.share(file: clip, origin: "app://")
        let media = try #require(try shares.mediaURL(for: first))
        _ = try shares.mediaURL(for: second)
        let port = try #require(shares.media.port)
        shares.revoke(first)
        await shares.media.settled()
        #expect(shares.media.port == port, "a media share is left")
        shares.revoke(second)
        await shares.media.settled()
        #expect(shares.media.port == nil)
        #expect(log.contains("loopback listener stopped"))
        await #expect(throws: RawHTTP.Failure.self) { _ = try await get(media) }
    }

    @Test func theListenerStopsWhenItsLastMediaShareExpiresUnused() async throws {
        let realClock = FileShares(logger: log.logger())
        let url = try realClock.share(file: clip, origin: "app://", lifetime: .milliseconds(300))
        let media = try #require(try realClock.mediaURL(for: url))
        #expect(realClock.media.port != nil)
        #expect(await log.wait(for: "loopback listener stopped"), "\(log.lines)")
        #expect(realClock.media.port == nil)
        #expect(realClock.count == 0, "the expired share was ended")
        await #expect(throws: RawHTTP.Failure.self) { _ = try await get(media) }
    }

    @Test func revokingAShareCutsItsBodyBeingSentToAStalledClient() async throws {
        let big = try Self.bigClip()
        defer { try? FileManager.default.removeItem(atPath: (big as NSString).deletingLastPathComponent) }
        let url = try shares.share(file: big, origin: "app://")
        let media = try #require(try shares.mediaURL(for: url))
        _ = try #require(try shares.mediaURL(for: try shares.share(file: clip, origin: "app://")))  // keeps the listener up
        let (port, path) = try target(media)
        let client = RawHTTP.Stalled(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)", first: 100_000)
        try await client.stopped()
        shares.revoke(url)
        #expect(await log.wait(for: "its share ended"), "\(log.lines)")
        let total = try await client.resume()
        #expect(total < 32 << 20, "the body was cut: \(total) bytes arrived")
        #expect(shares.media.activeStreams == 0)
        #expect(shares.media.port == port, "the listener stays for the other share")
        shares.revokeAll()
    }

    @Test func aClientThatHangsUpMidBodyIsLoggedAndReleased() async throws {
        let big = try Self.bigClip()
        defer { try? FileManager.default.removeItem(atPath: (big as NSString).deletingLastPathComponent) }
        let media = try #require(try shares.mediaURL(for: try shares.share(file: big, origin: "app://")))
        let (port, path) = try target(media)
        let read = try await RawHTTP.hangUp(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)", after: 300_000)
        #expect(read >= 300_000)
        #expect(await log.wait(for: "the client went away"), "\(log.lines)")
        #expect(shares.media.activeStreams == 0, "the body's stream was released")
        let after = try await get(media, headers: ["Range: bytes=0-9"])
        #expect(after.status == 206, "the listener still answers")
        shares.revokeAll()
    }
}

/// A clock a test moves by hand (share expiry).
private final class MediaTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now
    var now: ContinuousClock.Instant { lock.withLock { instant } }
    func advance(_ duration: Duration) { lock.withLock { instant += duration } }
}
