import Foundation
@testable import HybridShellCore
import Testing

/// A clock the tests move by hand.
private final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now
    var now: ContinuousClock.Instant { lock.withLock { instant } }
    func advance(_ duration: Duration) { lock.withLock { instant += duration } }
}

@Suite("FileShares: tokens, origins, expiry, revocation (pure)")
struct FileSharesTests {
    let file: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-share-\(getpid()).txt").path
        try? Data("shared bytes".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }()

    private func status(_ shares: FileShares, _ url: String, origin: String?, page: String? = nil) async throws -> Int {
        var headers: [(name: String, value: String)] = []
        if let origin { headers.append(("Origin", origin)) }
        return try await shares.response(for: SchemeRequest(url: url, headers: headers, page: page.map { SchemePage(id: 1, url: $0) })).status
    }

    @Test func aShareIsReadableOnlyByItsOrigin() async throws {
        let shares = FileShares()
        let url = try shares.share(file: file, origin: "app://")
        #expect(url.hasPrefix("hybrid-file://"))
        #expect(url.hasSuffix("/hybrid-share-\(getpid()).txt"))
        #expect(try await status(shares, url, origin: "app://") == 200)
        #expect(try await status(shares, url, origin: "https://evil.example") == 403)
        #expect(try await status(shares, url, origin: "null") == 403)
        // No Origin header (<img>, <video>): the page's own origin decides.
        #expect(try await status(shares, url, origin: nil, page: "app:///index.html") == 200)
        #expect(try await status(shares, url, origin: nil, page: "https://evil.example/") == 403)
        #expect(try await status(shares, url, origin: nil) == 403)
    }

    @Test func tokensAreUnguessableAndDistinct() throws {
        let shares = FileShares()
        let urls = try (0..<100).map { _ in try shares.share(file: file, origin: "app://") }
        #expect(Set(urls).count == 100)
        let token = urls[0].dropFirst("hybrid-file://".count).prefix { $0 != "/" }
        #expect(token.count == 32)
    }

    @Test func expiredRevokedAndEndedSessionSharesAre404() async throws {
        let clock = ManualClock()
        let shares = FileShares(defaultLifetime: .seconds(60), now: { clock.now })
        let expiring = try shares.share(file: file, origin: "app://")
        let revoked = try shares.share(file: file, origin: "app://")
        let session = try shares.share(file: file, origin: "app://", session: "s1", lifetime: .seconds(3600))
        let otherSession = try shares.share(file: file, origin: "app://", session: "s2", lifetime: .seconds(3600))
        #expect(shares.revoke(revoked))
        #expect(!shares.revoke(revoked))
        #expect(try await status(shares, revoked, origin: "app://") == 404)
        #expect(try await status(shares, expiring, origin: "app://") == 200)
        clock.advance(.seconds(61))
        #expect(try await status(shares, expiring, origin: "app://") == 404)
        shares.endSession("s1")
        #expect(try await status(shares, session, origin: "app://") == 404)
        #expect(try await status(shares, otherSession, origin: "app://") == 200)
        #expect(shares.count == 1)
    }

    @Test func badInputIsAPreciseError() throws {
        let shares = FileShares()
        #expect(throws: ShellError.fileNotFound("/no/such/file")) { try shares.share(file: "/no/such/file", origin: "app://") }
        #expect(throws: ShellError.self) { try shares.share(file: file, origin: "null") }
        #expect(throws: ShellError.self) { try shares.share(file: FileManager.default.temporaryDirectory.path, origin: "app://") }
    }

    @Test func aBridgeCallSharesForItsOwnOriginAndSession() async throws {
        let shares = FileShares()
        let call = BridgeCall(handler: "chooseVideo", origin: "app://", url: "app:///index.html", sessionID: "s9")
        let url = try call.share(file: file, name: "clip.mp4", in: shares)
        #expect(url.hasSuffix("/clip.mp4"))
        #expect(try await status(shares, url, origin: "app://") == 200)
        shares.endSession("s9")
        #expect(try await status(shares, url, origin: "app://") == 404)
    }
}
