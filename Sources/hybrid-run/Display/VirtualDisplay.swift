import Foundation
import Synchronization

/// A private X server for one run: `Xvfb -displayfd` picks a free display number, `-nolisten tcp`
/// keeps it local, and a fresh MIT cookie in a private authority file keeps other users out.
/// ``startForProcess(timeout:)`` sets `DISPLAY` and `XAUTHORITY` (before GTK starts) and stops the
/// server at `exit`.
///
/// Every exit path ends the server: `exit` (the commands turn SIGTERM/SIGINT into one) runs
/// ``stopActive()``; if this process dies without it (SIGKILL, a crash), the kernel sends SIGTERM to
/// the small shell that owns Xvfb (`setpriv --pdeathsig`), which ends Xvfb and removes the
/// directory. Xvfb runs in a process group of its own, so a terminal's Ctrl-C reaches only
/// hybrid-run, which still needs the display while it shuts down.
final class VirtualDisplay: Sendable {
    /// `:N`.
    let display: String
    let authorityFile: String
    /// The shell that owns Xvfb (see ``reaperScript``).
    private let reaper: pid_t

    private static let active = Mutex<VirtualDisplay?>(nil)

    /// `$1` is the directory to remove, the rest is the server's command line. The trap is set
    /// before the server starts so a signal at any moment still ends it.
    static let reaperScript = """
        dir=$1; shift
        trap 'stop=1; [ -n "$server" ] && kill -TERM "$server" 2>/dev/null' TERM INT HUP
        "$@" & server=$!
        exec >/dev/null
        [ -n "$stop" ] && kill -TERM "$server" 2>/dev/null
        wait "$server"
        wait "$server" 2>/dev/null
        rm -rf -- "$dir"
        """

    private init(display: String, authorityFile: String, reaper: pid_t) {
        self.display = display
        self.authorityFile = authorityFile
        self.reaper = reaper
    }

    /// Starts the server, points `DISPLAY`/`XAUTHORITY` at it and stops it when the process exits.
    /// Call on the main thread (the parent-death signal follows the thread that spawned).
    static func startForProcess(timeout: Duration = .seconds(10)) throws(VirtualDisplayError) {
        let server = try start(path: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", timeout: timeout)
        setenv("DISPLAY", server.display, 1)
        setenv("XAUTHORITY", server.authorityFile, 1)
        // A private X server is drawn on through X11, whatever Wayland display the session has.
        setenv("GDK_BACKEND", "x11", 1)
        active.withLock { $0 = server }
        atexit { VirtualDisplay.stopActive() }
    }

    /// Stops the server started by ``startForProcess(timeout:)``, once.
    static func stopActive() {
        active.withLock { server in
            server?.stop()
            server = nil
        }
    }

    static func start(path: String, timeout: Duration) throws(VirtualDisplayError) -> VirtualDisplay {
        let candidates: [String] = path.split(separator: ":").map { String($0) + "/Xvfb" }
        guard let xvfb = candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw .notInstalled
        }
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-run-display-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { throw .cannotPrepare("mkdtemp: \(String(cString: strerror(errno)))") }
        let directory = String(cString: made)
        let authority = directory + "/Xauthority"
        var cookie = [UInt8](repeating: 0, count: 16)
        for index in cookie.indices { cookie[index] = UInt8.random(in: 0...255) }
        guard FileManager.default.createFile(atPath: authority, contents: Data(XauthorityEntry.cookie(cookie).bytes),
                                             attributes: [.posixPermissions: 0o600]) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw .cannotPrepare("cannot write \(authority)")
        }
        let arguments = ["-displayfd", "1", "-nolisten", "tcp", "-auth", authority, "-screen", "0", "1280x1024x24"]
        let spawned: XvfbSpawn
        do throws(VirtualDisplayError) {
            spawned = try XvfbSpawn(script: reaperScript, directory: directory, server: [xvfb] + arguments)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        defer { close(spawned.displayFD); close(spawned.logFD) }
        switch spawned.readDisplayNumber(timeout: timeout) {
        case .number(let number):
            return VirtualDisplay(display: ":\(number)", authorityFile: authority, reaper: spawned.pid)
        case .ended:
            XvfbSpawn.reap(spawned.pid, signal: nil)
            throw .exited(spawned.lastLogLine())
        case .timedOut:
            XvfbSpawn.reap(spawned.pid, signal: SIGTERM)
            throw .timedOut(timeout)
        }
    }

    /// Ends Xvfb and waits until the shell has removed the directory.
    func stop() {
        XvfbSpawn.reap(reaper, signal: SIGTERM)
    }
}
