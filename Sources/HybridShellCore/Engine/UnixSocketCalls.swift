import Glibc

/// The raw system calls of the control socket's server and client, wrapped in one place.
package enum UnixSocketCalls {
    /// The longest path a `sockaddr_un` holds: 108 bytes of `sun_path`, less the final NUL.
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)`: -1 and `errno` on failure.
    public static func makeSocket() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    }

    /// Calls `body` with the `sockaddr_un` of `path`, or throws when no UNIX socket can have that path.
    public static func withAddress<R>(
        of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) throws(ShellError) -> R {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw .invalidArgument("the control socket path is empty") }
        guard !bytes.contains(0) else { throw .invalidArgument("the control socket path contains a NUL character") }
        guard bytes.count <= maximumPathLength else {
            throw .invalidArgument("the control socket path is too long for a UNIX socket (\(bytes.count) bytes, at most \(maximumPathLength)): \(path)")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Accepts one pending connection (of any socket family) as a close-on-exec descriptor,
    /// non-blocking unless asked otherwise (`accept4`); -1 and `errno` when there is none or it
    /// failed.
    ///
    /// Glibc's Swift module hides `accept4` (a GNU extension), so it is looked up once. Plain
    /// `accept` plus `fcntl` would leave a moment in which a process WebKit spawns inherits the
    /// connection and holds it open.
    public static func accept(_ listening: Int32, nonBlocking: Bool = true) -> Int32 {
        let blocking = nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0
        if let accept4 = accept4Function {
            return accept4(listening, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | blocking)
        }
        let descriptor = Glibc.accept(listening, nil, nil)
        if descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        }
        return descriptor
    }

    /// The user id of the process at the other end (`SO_PEERCRED`), as it was when it connected.
    public static func peerUserID(_ descriptor: Int32) -> uid_t? {
        // `struct ucred` is hidden too (GNU); its layout is fixed: pid, uid, gid.
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    /// `lstat`: the file's type and owner without following a final symbolic link, or nil with `errno`.
    public static func fileStatus(_ path: String, followingLinks: Bool = false) -> stat? {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        return result == 0 ? status : nil
    }

    public static func isSocket(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFSOCK }

    public static func isDirectory(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFDIR }

    /// What kind of file it is, for messages ("a regular file").
    public static func typeName(_ status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "an unknown kind of file"
        }
    }

    /// `strerror`: "Connection refused".
    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

private typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32

// A nil handle is RTLD_DEFAULT: the symbol as the process already links it.
private let accept4Function: Accept4? = dlsym(nil, "accept4").map { unsafeBitCast($0, to: Accept4.self) }
