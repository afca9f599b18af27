import Foundation
import Glibc
import HybridShell

/// The process of `hybrid-run webdriver`: its listening socket, its WebKitWebDriver child, its
/// ``WebDriverProxy`` and the signals that end all three. No GLib loop and no display: the
/// sessions' browsers (hybrid-run --automation, started by WebKitWebDriver) need those, not this.
struct WebDriverServer {
    let host: String
    let port: UInt16
    let webKitWebDriver: String
    let sessionArguments: [String]

    func run() -> Int32 {
        let errors = OutputLines.standardError
        signal(SIGPIPE, SIG_IGN)
        let listening: (descriptor: Int32, port: UInt16)
        do { listening = try Self.listen(host: host, port: port) } catch {
            errors.write("hybrid-run: error: \(error)")
            return ExitStatus.usage.rawValue
        }
        let stopping = StopFlag()
        let driver: WebKitWebDriverProcess
        do {
            driver = try WebKitWebDriverProcess.start(executable: webKitWebDriver) { status in
                guard stopping.begin() else { return }
                errors.write("hybrid-run: error: WebKitWebDriver ended by itself (wait status \(status)); hybrid-run webdriver stops")
                exit(ExitStatus.failure.rawValue)
            }
        } catch {
            errors.write("hybrid-run: error: \(error)")
            return ExitStatus.failure.rawValue
        }
        // Ignored as signals, delivered as events: whichever thread the kernel picks, the process
        // does not just die with WebKitWebDriver left running.
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard stopping.begin() else { return }
                driver.stop()
                exit(0)
            }
            source.resume()
            return source
        }
        let binary = Self.executablePath()
        let gate = WebDriverGate(binary: binary, arguments: sessionArguments, isSameExecutable: { Self.realPath($0) == binary })
        OutputLines.standardOutput.write("hybrid-run webdriver: listening on http://\(host):\(listening.port)/")
        let proxy = WebDriverProxy(gate: gate, upstreamPort: driver.port) { errors.write($0) }
        withExtendedLifetime(sources) { proxy.serve(listening: listening.descriptor) }
    }

    /// This hybrid-run, as a real path: what every session runs.
    static func executablePath() -> String {
        realPath("/proc/self/exe") ?? CommandLine.arguments[0]
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A listening TCP socket on `host:port` (port 0: any free one) and the port it got.
    static func listen(host: String, port: UInt16) throws(ShellError) -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .invalidArgument("cannot make a socket: \(UnixSocketCalls.errorText(errno))") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = LoopbackAddress.make(port: port, host: host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(descriptor, 64) == 0 else {
            let reason = UnixSocketCalls.errorText(errno)
            Glibc.close(descriptor)
            throw .invalidArgument("cannot listen on \(host):\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}

/// Set once by whichever ends the process first: a signal or WebKitWebDriver's own end.
final class StopFlag: @unchecked Sendable {  // guarded by its lock
    private let lock = NSLock()
    private var stopped = false

    /// True for the first caller only.
    func begin() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if stopped { return false }
        stopped = true
        return true
    }
}
