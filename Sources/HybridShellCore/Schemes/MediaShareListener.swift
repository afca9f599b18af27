import Foundation

/// The loopback HTTP listener of one ``FileShares`` registry: started when the first media URL
/// is made (``FileShares/mediaURL(for:)``), stopped when no share with a media URL is left
/// (revoked, expired, its session ended, ``FileShares/revokeAll()``). Its state is touched on
/// the ``EngineActor`` only: the server's sockets are sources of the GLib main context.
public final class MediaShareListener: @unchecked Sendable {
    private var server: LoopbackHTTPServer?
    private var expiryTimer: LoopTimer?

    private let lock = NSLock()
    private var pendingCheck: Task<Void, Never>?

    init() {}

    func schedule(_ check: Task<Void, Never>) {
        lock.withLock { pendingCheck = check }
    }

    /// Waits for the latest "is the listener still needed" check (tests).
    func settled() async {
        await lock.withLock { pendingCheck }?.value
    }

    /// The port of the running listener, nil when it is stopped.
    @EngineActor
    public var port: Int? { server?.port }

    /// Response bodies being written now (for tests: none is left once clients are done or gone).
    @EngineActor
    var activeStreams: Int { server?.streams.count ?? 0 }

    /// Starts the listener if it is not running; returns its port.
    @EngineActor
    func start(for shares: FileShares) throws(ShellError) -> Int {
        if let server, let port = server.port { return port }
        // The handler holds the registry weakly: the registry owns the listener, not the reverse.
        let made = LoopbackHTTPServer(logger: shares.logger) { [weak shares] request, listenerHost in
            guard let shares else { return .error(404, "no such media share") }
            return shares.mediaResponse(for: request, listenerHost: listenerHost)
        }
        let port = try made.start()
        server = made
        shares.logger.info("media share: loopback listener on 127.0.0.1:\(port)")
        return port
    }

    /// Cuts the bodies still being sent for shares that have ended, and stops the listener when
    /// no share of `shares` needs it any more.
    @EngineActor
    func stopIfUnused(by shares: FileShares) {
        server?.abortStreams { path in !shares.isValidMediaToken(String(path.dropFirst().prefix(32)).lowercased()) }
        guard let server, !shares.hasMediaShares else { return }
        server.stop()
        self.server = nil
        expiryTimer?.cancel()
        expiryTimer = nil
        shares.logger.info("media share: no media share left; loopback listener stopped")
    }

    /// Wakes at the earliest expiry of a media share, so the listener also stops when the last
    /// one expires unused (nothing else would notice: expiry is otherwise checked on use).
    @EngineActor
    func rearmExpiry(for shares: FileShares) {
        expiryTimer?.cancel()
        expiryTimer = nil
        guard server != nil, let earliest = shares.earliestMediaExpiry else { return }
        let wait = max(earliest - shares.now(), .milliseconds(10))
        expiryTimer = LoopTimer(after: wait) { [weak self, weak shares] in
            guard let self, let shares else { return }
            shares.endExpired()
            self.stopIfUnused(by: shares)
            self.rearmExpiry(for: shares)
        }
    }
}
