import Glibc

/// One accepted connection of a ``UnixSocketListener``: it reads one request line, hands it to the
/// handler, writes the one reply line and closes. Every wait is a ``FileDescriptorWatch``.
@EngineActor
final class UnixSocketConnection {
    private var descriptor: Int32
    private var watch: FileDescriptorWatch?
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var written = 0
    private var hasReplied = false
    /// Bytes of a too-long request read and dropped so far; nil while the request fits.
    private var discarded: Int?
    private let maximumRequestLength: Int
    private let onRequest: UnixSocketListener.RequestHandler
    private let onClose: (UnixSocketConnection) -> Void

    /// Takes ownership of `descriptor` (non-blocking). `onClose` is told once, when it is closed.
    init(descriptor: Int32, maximumRequestLength: Int,
         onRequest: @escaping UnixSocketListener.RequestHandler,
         onClose: @escaping (UnixSocketConnection) -> Void) {
        self.descriptor = descriptor
        self.maximumRequestLength = maximumRequestLength
        self.onRequest = onRequest
        self.onClose = onClose
    }

    /// Starts reading the request.
    func readRequest() {
        watch = FileDescriptorWatch(descriptor, for: .readable) { [weak self] _ in self?.readAvailable() ?? false }
    }

    /// Sends `text` and a "\n", then closes. Only the first call counts.
    func reply(_ text: String) {
        guard !hasReplied, descriptor >= 0 else { return }
        hasReplied = true
        stopWatching()
        output = Array((text + "\n").utf8)
        flush()
    }

    /// Closes the descriptor; a reply not yet sent is dropped. Idempotent.
    func close() {
        guard descriptor >= 0 else { return }
        stopWatching()
        Glibc.close(descriptor)
        descriptor = -1
        onClose(self)
    }

    /// Reads what has arrived; returns whether to keep watching.
    private func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0, let dropped = discarded {
                discarded = dropped + count
                if chunk[..<count].contains(UInt8(ascii: "\n")) || dropped + count > Self.maximumDiscard {
                    finishRefusal()
                    return false
                }
            } else if count > 0 {
                let searchedUpTo = input.count
                input.append(contentsOf: chunk[..<count])
                if let newline = input[searchedUpTo...].firstIndex(of: UInt8(ascii: "\n")) {
                    received(upTo: newline)
                    return false
                }
                if input.count > maximumRequestLength {
                    discarded = input.count
                    input = []
                    startRefusal()
                }
            } else if count == 0, discarded != nil {
                finishRefusal()
                return false
            } else if count == 0 {
                // End of file: a last line without "\n" still counts; no line at all means the
                // client left without asking anything.
                if input.isEmpty { close() } else { received(upTo: input.count) }
                return false
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return true
            } else if errno != EINTR {
                close()  // ECONNRESET and the like: the client is gone
                return false
            }
        }
    }

    /// The most of a too-long request read (and dropped) after its refusal: beyond this the
    /// client is cut off.
    static let maximumDiscard = 16 << 20

    private var tooLongRefusal: String {
        UnixSocketListener.refusal("request too long: a request is one line of at most \(maximumRequestLength) bytes")
    }

    /// A too-long request: its refusal is sent at once (as much as the socket takes), and the
    /// rest of its line is then read and dropped before the connection closes — a socket closed
    /// with unread input resets the connection, and a client still sending its request would get
    /// that reset instead of the refusal.
    private func startRefusal() {
        hasReplied = true
        output = Array((tooLongRefusal + "\n").utf8)
        while written < output.count {
            let count = output.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if count > 0 { written += count } else if count < 0, errno == EINTR { continue } else { break }
        }
    }

    /// The too-long line has ended (its newline, the end of input, or ``maximumDiscard``): sends
    /// what is left of the refusal, then closes.
    private func finishRefusal() {
        stopWatching()
        flush()
    }

    private func received(upTo end: Int) {
        stopWatching()
        guard end <= maximumRequestLength else {
            reply(tooLongRefusal)
            return
        }
        let line = String(decoding: input[..<end], as: UTF8.self)
        input = []
        // While the handler works, only a hang-up is watched for, so that a client that gives up
        // does not keep its descriptor open until a reply that may never come.
        watch = FileDescriptorWatch(descriptor, for: .hangUp) { [weak self] _ in
            self?.close()
            return false
        }
        onRequest(line) { [weak self] text in self?.reply(text) }
    }

    /// Writes what the socket takes; a write watch calls again for the rest. Closes when all is
    /// written or the client has gone. Returns whether bytes remain.
    @discardableResult
    private func flush() -> Bool {
        while written < output.count {
            let count = output.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                if watch == nil {
                    watch = FileDescriptorWatch(descriptor, for: .writable) { [weak self] _ in self?.flush() ?? false }
                }
                return true
            } else if count == 0 || errno != EINTR {
                break  // EPIPE and the like: the client left before reading its reply
            }
        }
        close()
        return false
    }

    private func stopWatching() {
        watch?.cancel()
        watch = nil
    }

    isolated deinit {
        watch?.cancel()
        if descriptor >= 0 { Glibc.close(descriptor) }
    }
}
