import Foundation

/// The process side of ``VirtualDisplay``: spawns the reaper shell (under `setpriv --pdeathsig`
/// when util-linux has it) with Xvfb's `-displayfd` on a socket and its stderr in a log file, reads
/// the display number with a deadline, and reaps the shell.
struct XvfbSpawn {
    enum Start: Equatable {
        case number(Int)
        case ended
        case timedOut
    }

    let pid: pid_t
    /// Our end of Xvfb's `-displayfd 1`.
    let displayFD: Int32
    /// Xvfb's stderr, kept open here: the shell removes the file with its directory.
    let logFD: Int32

    init(script: String, directory: String, server: [String]) throws(VirtualDisplayError) {
        var fds: [Int32] = [0, 0]
        // A socket pair stands in for pipe2(O_CLOEXEC), which Glibc's Swift module does not show;
        // close-on-exec keeps our end out of WebKit's processes.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .cannotPrepare("socketpair: \(String(cString: strerror(errno)))")
        }
        let log = open(directory + "/Xvfb.log", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard log >= 0 else {
            close(fds[0]); close(fds[1])
            throw .cannotPrepare("cannot create \(directory)/Xvfb.log")
        }
        let shell = ["/bin/sh", "-c", script, "hybrid-run-xvfb", directory] + server
        let spawned = HelperSpawn.start(shell, stdout: fds[1], stderr: log)
        close(fds[1])
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(fds[0]); close(log)
            throw .cannotPrepare("\(shell[0]): \(String(cString: strerror(error.number)))")
        }
        self.pid = pid
        displayFD = fds[0]
        logFD = log
    }

    /// Waits (in `poll`, no spinning) for the line Xvfb writes once it accepts connections.
    func readDisplayNumber(timeout: Duration) -> Start {
        let deadline = ContinuousClock.now + timeout
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let left = deadline - ContinuousClock.now
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            guard milliseconds > 0 else { return .timedOut }
            var descriptor = pollfd(fd: displayFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(milliseconds, Int64(Int32.max))))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return ready == 0 ? .timedOut : .ended }
            let count = read(displayFD, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return .ended }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
            if let newline = text.firstIndex(of: "\n") {
                return Int(text[..<newline].trimmingCharacters(in: .whitespaces)).map(Start.number) ?? .ended
            }
        }
    }

    /// The last non-empty line Xvfb wrote on stderr.
    func lastLogLine() -> String {
        var data = [UInt8](repeating: 0, count: 8192)
        let count = pread(logFD, &data, data.count, 0)
        guard count > 0 else { return "" }
        let lines = String(decoding: data[0..<count], as: UTF8.self).split(separator: "\n")
        return lines.last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
    }

    /// Sends `signal` (if any) to the shell and waits for it, which waits for Xvfb.
    static func reap(_ pid: pid_t, signal: Int32?) {
        if let signal { kill(pid, signal) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}
