import Foundation

extension PackageStore {
    /// The directory the active version's files would be in, from one `readlink` of the `current`
    /// link and no file read: a server that cached an ``InstalledPackage`` compares its
    /// ``InstalledPackage/root`` with this to know whether the version switched meanwhile.
    public func activeRootPath(_ appID: String) -> String? {
        guard PackageManifest.appIDProblem(appID) == nil, let version = activeVersionPath(appID) else { return nil }
        return URL(fileURLWithPath: version + "/files").path
    }
}
