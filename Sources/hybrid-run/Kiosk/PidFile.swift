import HybridShell
import Foundation

/// `--pid-file`: the process id, written when the kiosk starts and removed when it stops. A file
/// naming a live `hybrid-run` refuses the start (two kiosks would fight over one screen).
struct PidFile: Sendable {
    let path: String

    init(path: String) {
        self.path = path
    }

    func write(pid: Int32 = getpid()) throws(ShellError) {
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
           let other = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), other != pid, kill(other, 0) == 0,
           (try? String(contentsOfFile: "/proc/\(other)/comm", encoding: .utf8))?.hasPrefix("hybrid-run") == true {
            throw .invalidArgument("\(path) names process \(other), a running hybrid-run; stop it first or use another --pid-file")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            // Missing directories are made 0700 whatever the umask, as the control socket's are:
            // the two often share one (docs/kiosk.md), and whichever comes first makes it.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try "\(pid)\n".write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw .invalidArgument("cannot write the pid file \(path): \(error.localizedDescription)")
        }
    }

    /// Removes the file if it still names this process.
    func remove(pid: Int32 = getpid()) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) == pid else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
