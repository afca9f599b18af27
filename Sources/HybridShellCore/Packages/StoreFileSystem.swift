#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The file operations an ``InstallCommit`` is made of, on names relative to one app directory.
/// ``AppDirectory`` does them on disk; tests hand in one that fails where they choose.
protocol StoreFileSystem {
    /// Creates `name` (it must not exist), writes `data` and flushes it.
    func write(_ data: Data, to name: String) throws(PackageError)
    func makeLink(_ name: String, to target: String) throws(PackageError)
    func rename(_ name: String, to newName: String) throws(PackageError)
    /// Removes a file, link or tree; missing is fine.
    func remove(_ name: String)
    func syncDirectory()
}

/// One app's directory in the store, on disk.
struct AppDirectory: StoreFileSystem {
    let path: String

    func write(_ data: Data, to name: String) throws(PackageError) {
        let file = path + "/" + name
        unlink(file)
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw StoreFiles.error(file) }
        defer { close(fd) }
        try StoreFiles.write(fd, data, path: file)
        guard fsync(fd) == 0 else { throw StoreFiles.error(file) }
    }

    func makeLink(_ name: String, to target: String) throws(PackageError) {
        unlink(path + "/" + name)
        guard symlink(target, path + "/" + name) == 0 else { throw StoreFiles.error(path + "/" + name) }
    }

    func rename(_ name: String, to newName: String) throws(PackageError) {
        guard Glibc.rename(path + "/" + name, path + "/" + newName) == 0 else { throw StoreFiles.error(path + "/" + newName) }
    }

    func remove(_ name: String) {
        if unlink(path + "/" + name) != 0 { StoreFiles.removeTree(path + "/" + name) }
    }

    func syncDirectory() { StoreFiles.fsyncPath(path) }
}
