import HybridShell
import Glibc

/// Whether `hybrid-run ctl` may talk to the kiosk at its default socket path. That path is in a
/// directory anyone could have made first (`/tmp/hybrid-run-<uid>`): another local user who
/// serves a socket there would receive our requests and answer them. So the directory must be
/// a real directory of our own user that nobody else may write into, and the process serving
/// the socket (its `SO_PEERCRED`) must be our user too. An explicit `--socket` is trusted as given.
enum ControlSocketTrust {
    /// Why the directory holding `socketPath` cannot be trusted by `userID`, or nil.
    /// - Parameter status: its `lstat`, nil when it does not exist (then the connect says so).
    static func directoryProblem(_ status: stat?, socketPath: String, userID: uid_t) -> String? {
        guard let status else { return nil }
        let directory = directoryOf(socketPath)
        guard UnixSocketCalls.isDirectory(status) else {
            return "the control socket's directory \(directory) is \(UnixSocketCalls.typeName(status)), not a directory: refusing to use it (pass --socket PATH to choose one)"
        }
        guard status.st_uid == userID else {
            return "the control socket's directory \(directory) belongs to uid \(status.st_uid), not to you (uid \(userID)): another user may be serving it; refusing to use it (remove it, or pass --socket PATH)"
        }
        guard status.st_mode & 0o022 == 0 else {
            return "the control socket's directory \(directory) can be written by other users (mode \(String(status.st_mode & 0o777, radix: 8))): refusing to use it (chmod 700 it, or pass --socket PATH)"
        }
        return nil
    }

    /// Why the process serving `socketPath` cannot be trusted by `userID`, or nil.
    static func peerProblem(_ peerUserID: uid_t?, socketPath: String, userID: uid_t) -> String? {
        guard let peerUserID else { return "cannot tell which user serves \(socketPath): refusing to use it" }
        guard peerUserID == userID else {
            return "the kiosk control socket \(socketPath) is served by uid \(peerUserID), not by you (uid \(userID)): refusing to talk to it (pass --socket PATH to choose a socket)"
        }
        return nil
    }

    static func directoryOf(_ socketPath: String) -> String {
        guard let slash = socketPath.lastIndex(of: "/") else { return "." }
        return slash == socketPath.startIndex ? "/" : String(socketPath[..<slash])
    }
}
