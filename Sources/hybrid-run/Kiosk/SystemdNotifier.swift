import HybridShell
import Foundation

/// `sd_notify` without libsystemd: datagrams to `$NOTIFY_SOCKET` (`READY=1`, `WATCHDOG=1`,
/// `STATUS=…`, `STOPPING=1`). Does nothing when the service manager did not ask for them.
struct SystemdNotifier: Sendable {
    let socketPath: String?
    /// Half of `$WATCHDOG_USEC` (systemd's advice), when the watchdog is on for this process.
    let watchdogPing: Duration?

    init(environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = getpid()) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path.flatMap { $0.hasPrefix("/") || $0.hasPrefix("@") ? $0 : nil }
        if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
           environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == pid }) ?? true {
            watchdogPing = .microseconds(Int64(usec / 2))
        } else {
            watchdogPing = nil
        }
    }

    /// Sends one state message; false when there is no socket or the send failed.
    @discardableResult
    func notify(_ state: String) -> Bool {
        guard let socketPath else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        // "@name" is an abstract socket: a leading NUL, and the length counts only the name.
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                sendto(descriptor, message, message.count, Int32(MSG_NOSIGNAL), sockaddrPointer, length)
            }
        }
        return sent == message.count
    }
}
