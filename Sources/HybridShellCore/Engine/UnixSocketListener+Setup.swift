import Glibc

/// Getting the socket file in place: its directory, a file already at the path, the bind.
extension UnixSocketListener {
    /// Creates the missing directories above `path` with mode 0700 and checks the one that holds it.
    static func prepareDirectory(of path: String) throws(ShellError) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        guard !directory.isEmpty else { return }  // "/name": the root directory
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            guard mkdir(prefix, 0o700) == 0 else {
                guard errno == EEXIST else {
                    throw .invalidArgument("cannot create the directory \(prefix) for the control socket: \(UnixSocketCalls.errorText(errno))")
                }
                continue
            }
            chmod(prefix, 0o700)  // whatever the umask
        }
        guard let status = UnixSocketCalls.fileStatus(directory, followingLinks: true) else {
            throw .invalidArgument("cannot use the directory \(directory) for the control socket: \(UnixSocketCalls.errorText(errno))")
        }
        guard UnixSocketCalls.isDirectory(status) else {
            throw .invalidArgument("cannot create the control socket in \(directory): it is \(UnixSocketCalls.typeName(status)), not a directory")
        }
        // Another user who owns the directory (say a squatted directory under /tmp) could swap
        // the socket for one of their own.
        let owner = geteuid()
        guard status.st_uid == owner || status.st_uid == 0 else {
            throw .invalidArgument("the directory \(directory) belongs to uid \(status.st_uid); the control socket must be in a directory of its own user (uid \(owner)) or root")
        }
        // Others must not be able to replace the socket: a directory they can write into, unless
        // it is sticky like /tmp (only the owner of a file may remove or rename it there).
        guard status.st_mode & 0o022 == 0 || status.st_mode & S_ISVTX != 0 else {
            throw .invalidArgument("the directory \(directory) of the control socket can be written by other users (mode \(String(status.st_mode & 0o777, radix: 8))); make it private (chmod 700) or choose another path")
        }
    }

    /// Deletes a socket file whose server is gone; throws when a server answers there or the file
    /// is not a socket.
    static func removeStaleSocket(at path: String) throws(ShellError) {
        guard let status = UnixSocketCalls.fileStatus(path) else {
            guard errno == ENOENT else {
                throw .invalidArgument("cannot check \(path) for an earlier control socket: \(UnixSocketCalls.errorText(errno))")
            }
            return
        }
        guard UnixSocketCalls.isSocket(status) else {
            throw .invalidArgument("\(path) exists and is \(UnixSocketCalls.typeName(status)), not a socket; remove it or choose another control socket path")
        }
        let probe = UnixSocketCalls.makeSocket()
        guard probe >= 0 else {
            throw .invalidArgument("cannot create a socket: \(UnixSocketCalls.errorText(errno))")
        }
        defer { Glibc.close(probe) }
        let failure = try UnixSocketCalls.withAddress(of: path) { connect(probe, $0, $1) == 0 ? 0 : errno }
        // EAGAIN: a live server whose queue of waiting connections is full.
        if failure == 0 || failure == EAGAIN {
            throw .invalidArgument("another kiosk is already listening on \(path)")
        }
        guard failure == ECONNREFUSED else {
            throw .invalidArgument("cannot check the existing control socket \(path): \(UnixSocketCalls.errorText(failure))")
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .invalidArgument("cannot remove the stale control socket \(path): \(UnixSocketCalls.errorText(errno))")
        }
    }

    /// Binds a new socket to `path` as an owner-only (0600) file and listens; returns its descriptor.
    static func bindAndListen(_ path: String) throws(ShellError) -> Int32 {
        let descriptor = UnixSocketCalls.makeSocket()
        guard descriptor >= 0 else {
            throw .invalidArgument("cannot create a socket: \(UnixSocketCalls.errorText(errno))")
        }
        // bind creates the file with 0777 less the umask; narrowing the umask for the call means it
        // is never reachable by others, not even for a moment. (The umask is process-wide, but
        // this is one system call long.)
        let bindError: Int32
        do {
            let previousMask = umask(0o177)
            defer { umask(previousMask) }
            bindError = try UnixSocketCalls.withAddress(of: path) { bind(descriptor, $0, $1) == 0 ? 0 : errno }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        guard bindError == 0 else {
            Glibc.close(descriptor)
            if bindError == EADDRINUSE {
                throw .invalidArgument("another kiosk is already listening on \(path)")
            }
            throw .invalidArgument("cannot create the control socket \(path): \(UnixSocketCalls.errorText(bindError))")
        }
        guard chmod(path, 0o600) == 0, listen(descriptor, 16) == 0 else {
            let reason = UnixSocketCalls.errorText(errno)
            Glibc.close(descriptor)
            unlink(path)
            throw .invalidArgument("cannot listen on the control socket \(path): \(reason)")
        }
        return descriptor
    }
}
