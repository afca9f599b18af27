#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// What each installed version's kept archive (`versions/N/package.zip`) proved: its signed
/// manifest, or why it proves nothing. The archive is hashed once per version and process, then the
/// answer is kept under the version directory's identity (device and inode: a version removed and
/// made again is a new directory, and is checked again).
final class SignedVersions: Sendable {
    private struct Identity: Hashable { let path: String; let device: UInt64; let inode: UInt64 }
    private let results = Mutex<[Identity: Result<PackageManifest, PackageError>]>([:])

    /// The signed manifest of the version at `versionPath`, from the cache or `verify`.
    func manifest(_ versionPath: String, verify: () throws(PackageError) -> PackageManifest) throws(PackageError) -> PackageManifest {
        var info = stat()
        guard stat(versionPath, &info) == 0 else { throw StoreFiles.error(versionPath) }
        let identity = Identity(path: versionPath, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let known = results.withLock({ $0[identity] }) { return try known.get() }
        let result: Result<PackageManifest, PackageError>
        do throws(PackageError) { result = .success(try verify()) } catch { result = .failure(error) }
        results.withLock { $0[identity] = result }
        return try result.get()
    }
}
