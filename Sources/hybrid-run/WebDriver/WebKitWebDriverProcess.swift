import Foundation
import Glibc
import HybridShell

/// WebKitWebDriver as the child of `hybrid-run webdriver`: started on a private loopback port,
/// stopped (with the browsers it started) whenever hybrid-run webdriver ends.
///
/// The private port is one of the ports browsers refuse to connect to (the Fetch standard's "bad
/// ports", which WebKit, Chromium and Firefox block for http, https and WebSocket), so a page
/// cannot reach this unguarded WebKitWebDriver even if it finds the port. 6000 (X11) is left out.
final class WebKitWebDriverProcess: @unchecked Sendable {  // pid is fixed; status is guarded by `ended`
    static let privatePorts: [UInt16] = [6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080, 6566, 4190, 4045, 3659, 2049, 1723, 1720, 1719]

    let pid: pid_t
    let port: UInt16
    private let ended = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var exitStatus: Int32?
    private var onExit: (@Sendable (Int32) -> Void)?

    private init(pid: pid_t, port: UInt16) {
        self.pid = pid
        self.port = port
    }

    /// Starts `executable` on the first free private port that it takes, waits until it accepts
    /// connections, and calls `onExit` (on another thread) when it ends from then on.
    static func start(executable: String, onExit: @escaping @Sendable (Int32) -> Void) throws(ShellError) -> WebKitWebDriverProcess {
        guard access(executable, X_OK) == 0 else {
            throw .invalidArgument("\(executable) is not an executable (Debian package webkit2gtk-driver: sudo apt-get install webkit2gtk-driver)")
        }
        for port in privatePorts where isFree(port) {
            let process = try spawn(executable, port: port)
            Thread.detachNewThread { process.waitForExit() }
            if process.waitUntilListening(deadline: .now() + 15) {
                process.watch(onExit)
                return process
            }
            process.stop()  // it did not come up (the port was taken meanwhile): the next one
        }
        throw .invalidArgument("WebKitWebDriver could not listen on any of the private loopback ports \(privatePorts.map(String.init).joined(separator: ", "))")
    }

    /// Ends WebKitWebDriver and the browsers of its process group: SIGTERM, SIGKILL after 5 s.
    func stop() {
        kill(-pid, SIGTERM)
        if ended.wait(timeout: .now() + 5) == .timedOut {
            kill(-pid, SIGKILL)
            _ = ended.wait(timeout: .now() + 5)
        }
        ended.signal()  // for any later stop()
    }

    private func waitForExit() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        lock.lock()
        exitStatus = status
        let handler = onExit
        lock.unlock()
        ended.signal()
        handler?(status)
    }

    private func watch(_ handler: @escaping @Sendable (Int32) -> Void) {
        lock.lock()
        let status = exitStatus
        if status == nil { onExit = handler }
        lock.unlock()
        if let status { handler(status) }
    }

    /// WebKitWebDriver says nothing when it is ready: try to connect every 20 ms until it accepts,
    /// it ends, or the deadline passes.
    private func waitUntilListening(deadline: DispatchTime) -> Bool {
        while DispatchTime.now() < deadline {
            if SocketStream.connect(loopbackPort: port) != nil { return true }
            if ended.wait(timeout: .now() + .milliseconds(20)) == .success {
                ended.signal()
                return false
            }
        }
        return false
    }

    private static func isFree(_ port: UInt16) -> Bool {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        var address = LoopbackAddress.make(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Started as a ``HelperSpawn`` (its own process group, ended with hybrid-run).
    private static func spawn(_ executable: String, port: UInt16) throws(ShellError) -> WebKitWebDriverProcess {
        // stdout onto stderr: stdout is for hybrid-run webdriver's own line.
        switch HelperSpawn.start([executable, "--port=\(port)", "--host=127.0.0.1"], stdout: 2, stderr: 2) {
        case .success(let pid): return WebKitWebDriverProcess(pid: pid, port: port)
        case .failure(let error): throw .invalidArgument("cannot start \(executable): \(UnixSocketCalls.errorText(error.number))")
        }
    }
}
