import HybridShell
import Glibc

/// The client side of a kiosk's control socket, as `hybrid-run ctl` uses it: connect, send one
/// request line, wait for the one reply line.
///
/// It blocks the calling thread (`poll` with the deadline), so never call it on ``EngineActor``
/// when the kiosk is in the same process: the loop that would answer is the one it blocks.
enum ControlClient {
    /// The longest reply accepted, in bytes.
    static let maximumReplyLength = 1 << 20

    /// Sends `request` to the kiosk listening at `socketPath` and returns its reply line (without
    /// "\n"), whatever it says; ``ControlReply`` reads it. Throws when there is no reply: no
    /// socket, permission denied, a stale socket, nothing within `timeout`, or the connection
    /// closed without a reply.
    /// - Parameter trustedUser: when set (the default socket path), the socket's directory and
    ///   the serving process must belong to this user (``ControlSocketTrust``), or nothing is sent.
    static func send(_ request: ControlRequest, socketPath: String, timeout: Duration, trustedUser: uid_t? = nil) throws(ShellError) -> String {
        try exchange(request.line, socketPath: socketPath, timeout: timeout, trustedUser: trustedUser)
    }

    /// ``send(_:socketPath:timeout:)`` for any line, unchecked (to test how a kiosk answers
    /// malformed requests). `line` must not contain "\n".
    static func exchange(_ line: String, socketPath: String, timeout: Duration, trustedUser: uid_t? = nil) throws(ShellError) -> String {
        let deadline = ContinuousClock.now + timeout
        if let trustedUser, let problem = ControlSocketTrust.directoryProblem(
            UnixSocketCalls.fileStatus(ControlSocketTrust.directoryOf(socketPath)), socketPath: socketPath, userID: trustedUser) {
            throw .invalidArgument(problem)
        }
        let descriptor = try connect(to: socketPath)
        defer { close(descriptor) }
        if let trustedUser, let problem = ControlSocketTrust.peerProblem(UnixSocketCalls.peerUserID(descriptor), socketPath: socketPath, userID: trustedUser) {
            throw .invalidArgument(problem)
        }
        try write(Array((line + "\n").utf8), to: descriptor, path: socketPath, deadline: deadline, timeout: timeout)
        return try readLine(from: descriptor, path: socketPath, deadline: deadline, timeout: timeout)
    }

    private static func connect(to path: String) throws(ShellError) -> Int32 {
        let descriptor = UnixSocketCalls.makeSocket()
        guard descriptor >= 0 else {
            throw .invalidArgument("cannot create a socket: \(UnixSocketCalls.errorText(errno))")
        }
        let failure: Int32
        do {
            failure = try UnixSocketCalls.withAddress(of: path) { Glibc.connect(descriptor, $0, $1) == 0 ? 0 : errno }
        } catch {
            close(descriptor)
            throw error
        }
        guard failure != 0 else { return descriptor }
        close(descriptor)
        switch failure {
        case ENOENT, ENOTDIR:
            throw .invalidArgument("no kiosk control socket at \(path) (is the kiosk running? was it started with --control-socket?)")
        case EACCES, EPERM:
            throw .invalidArgument("permission denied: cannot connect to \(path) (the kiosk runs as another user? run hybrid-run ctl as that user)")
        case ECONNREFUSED:
            if let status = UnixSocketCalls.fileStatus(path), !UnixSocketCalls.isSocket(status) {
                throw .invalidArgument("\(path) is \(UnixSocketCalls.typeName(status)), not a kiosk control socket")
            }
            throw .invalidArgument("connection refused at \(path): the socket is stale (the kiosk that created it is no longer running)")
        case EAGAIN:
            throw .invalidArgument("the kiosk at \(path) is not accepting connections (too many are waiting)")
        default:
            throw .invalidArgument("cannot connect to \(path): \(UnixSocketCalls.errorText(failure))")
        }
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32, path: String,
                              deadline: ContinuousClock.Instant, timeout: Duration) throws(ShellError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                guard try wait(for: Int16(POLLOUT), on: descriptor, until: deadline) else {
                    throw .timedOut("the kiosk at \(path) did not take the request within \(timeout.secondsText)")
                }
            } else if count == 0 || errno != EINTR {
                // EPIPE, ECONNRESET: the kiosk closed early, perhaps after answering (a refusal
                // comes before the request is read); the reply, if any, is waiting to be read.
                return
            }
        }
    }

    private static func readLine(from descriptor: Int32, path: String,
                                 deadline: ContinuousClock.Instant, timeout: Duration) throws(ShellError) -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let searchedUpTo = received.count
                received.append(contentsOf: chunk[..<count])
                if let newline = received[searchedUpTo...].firstIndex(of: UInt8(ascii: "\n")) {
                    return String(decoding: received[..<newline], as: UTF8.self)
                }
                guard received.count <= maximumReplyLength else {
                    throw .invalidArgument("the kiosk at \(path) sent a reply longer than \(maximumReplyLength) bytes")
                }
            } else if count == 0 || (errno == ECONNRESET && !received.isEmpty) {
                // The end: a last line without "\n" still counts.
                guard !received.isEmpty else {
                    throw .invalidArgument("the kiosk at \(path) closed the connection without a reply")
                }
                return String(decoding: received, as: UTF8.self)
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                guard try wait(for: Int16(POLLIN), on: descriptor, until: deadline) else {
                    throw .timedOut("no reply from the kiosk at \(path) within \(timeout.secondsText)")
                }
            } else if errno == ECONNRESET {
                throw .invalidArgument("the kiosk at \(path) closed the connection without a reply")
            } else if errno != EINTR {
                throw .invalidArgument("cannot read the reply from \(path): \(UnixSocketCalls.errorText(errno))")
            }
        }
    }

    /// Waits until `descriptor` is ready for `events`; false when the deadline passed first.
    private static func wait(for events: Int16, on descriptor: Int32, until deadline: ContinuousClock.Instant) throws(ShellError) -> Bool {
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return false }
            var request = pollfd(fd: descriptor, events: events, revents: 0)
            let milliseconds = Int32(min(remaining.milliseconds.rounded(.up), Double(Int32.max)))
            let result = poll(&request, 1, milliseconds)
            // Ready, or hung up / in error: the next read or write says which.
            if result > 0 { return true }
            if result < 0, errno != EINTR {
                throw .invalidArgument("cannot wait for the kiosk: \(UnixSocketCalls.errorText(errno))")
            }
        }
    }
}
