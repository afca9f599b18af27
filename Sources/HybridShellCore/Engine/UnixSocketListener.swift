import Glibc

/// A UNIX-domain stream socket on the GLib main loop that answers one request line per
/// connection: the kiosk's control channel, which `hybrid-run ctl` talks to.
///
/// The socket file is the owner's alone (mode 0600, in a directory created 0700 when missing), and
/// a connection from another user (its `SO_PEERCRED`) is refused with an error line unless it is
/// root. A request is one line ending in "\n" (or the end of the input), at most
/// ``maximumRequestLength`` bytes; the reply is one line too, after which the connection closes.
/// Accepting, reading and writing all wait on the loop's own poll (`g_unix_fd_add_full`).
@EngineActor
package final class UnixSocketListener {
    /// Sends one line (without "\n") as the reply, then closes the connection. Later calls do
    /// nothing; so does a call after the client has gone or the listener was closed.
    public typealias Reply = @EngineActor (String) -> Void
    /// Gets each request line (without its "\n") and a ``Reply``, to call now or later.
    public typealias RequestHandler = @EngineActor (_ line: String, _ reply: @escaping Reply) -> Void

    /// The reply line to a request the listener itself refuses (another user, too long):
    /// `{"ok":false,"error":REASON}`, the shape every reply of this protocol has.
    nonisolated static func refusal(_ reason: String) -> String {
        JSONValue.object(["ok": false, "error": .string(reason)]).jsonText
    }

    /// The longest request accepted, in bytes: 64 KiB.
    public static let maximumRequestLength = 65_536

    /// The socket file.
    public let path: String
    private var descriptor: Int32
    private let socketFile: (device: UInt64, inode: UInt64)
    private let onRequest: RequestHandler
    private var acceptWatch: FileDescriptorWatch?
    private var acceptPause: LoopTimer?
    private var connections: [ObjectIdentifier: UnixSocketConnection] = [:]

    /// Connections accepted and not yet closed (for tests).
    var openConnectionCount: Int { connections.count }

    /// Creates the socket at `path` and starts listening.
    ///
    /// A missing parent directory is created with mode 0700. A socket file left by a kiosk that is
    /// gone is replaced; a live one, or a file that is not a socket, is an error.
    public init(path: String, onRequest: @escaping RequestHandler) throws(ShellError) {
        try UnixSocketCalls.withAddress(of: path) { _, _ in }  // the path fits a sockaddr_un
        try Self.prepareDirectory(of: path)
        try Self.removeStaleSocket(at: path)
        descriptor = try Self.bindAndListen(path)
        guard let status = UnixSocketCalls.fileStatus(path) else {
            let reason = UnixSocketCalls.errorText(errno)
            Glibc.close(descriptor)
            throw .invalidArgument("the control socket \(path) vanished right after it was created: \(reason)")
        }
        self.path = path
        self.onRequest = onRequest
        socketFile = (UInt64(status.st_dev), UInt64(status.st_ino))
        watchForConnections()
    }

    /// Stops listening: removes the loop sources, closes every connection (a request not yet
    /// answered gets no reply, so reply before closing) and deletes the socket file. Idempotent.
    public func close() {
        acceptWatch?.cancel()
        acceptWatch = nil
        acceptPause?.cancel()
        acceptPause = nil
        for connection in Array(connections.values) { connection.close() }
        connections = [:]
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        // Only our own file: had it been replaced since, the new one would belong to someone else.
        if let status = UnixSocketCalls.fileStatus(path),
           UInt64(status.st_dev) == socketFile.device, UInt64(status.st_ino) == socketFile.inode {
            unlink(path)
        }
    }

    isolated deinit { close() }

    private func watchForConnections() {
        acceptPause = nil
        acceptWatch = FileDescriptorWatch(descriptor, for: .readable) { [weak self] _ in self?.acceptPending() ?? false }
    }

    /// Accepts every waiting connection; returns whether to keep watching.
    private func acceptPending() -> Bool {
        while descriptor >= 0 {
            let connection = UnixSocketCalls.accept(descriptor)
            if connection >= 0 {
                start(connection)
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return true
            default:
                // Out of descriptors (EMFILE): the socket stays readable, so watching it would spin.
                // Pause a little and try again.
                acceptWatch?.cancel()
                acceptWatch = nil
                acceptPause = LoopTimer(after: .milliseconds(100)) { [weak self] in self?.watchForConnections() }
                return false
            }
        }
        return false
    }

    private func start(_ descriptor: Int32) {
        let connection = UnixSocketConnection(
            descriptor: descriptor, maximumRequestLength: Self.maximumRequestLength, onRequest: onRequest
        ) { [weak self] closed in
            self?.connections[ObjectIdentifier(closed)] = nil
        }
        connections[ObjectIdentifier(connection)] = connection
        let owner = geteuid()
        switch UnixSocketCalls.peerUserID(descriptor) {
        case .some(let user) where user == owner || user == 0:
            connection.readRequest()
        case .some(let user):
            connection.reply(Self.refusal("permission denied: uid \(user) is neither the kiosk's user (uid \(owner)) nor root"))
        case .none:
            connection.reply(Self.refusal("permission denied: the connecting user cannot be identified (\(UnixSocketCalls.errorText(errno)))"))
        }
    }
}
