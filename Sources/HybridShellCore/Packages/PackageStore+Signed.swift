import Foundation

extension PackageStore {
    /// The signed archive kept in each version directory (`versions/N/package.zip`).
    static let signedArchiveName = "package.zip"

    /// The active version of `appID` as its publisher signed it, for serving: the manifest is read
    /// from the version's kept archive after its signature verified with a trusted key (once per
    /// version, ``SignedVersions``), never from the `manifest.json` beside it, which anyone who can
    /// write the store could edit. Nil when the app is not installed; throws when the version
    /// proves nothing (no kept archive, an untrusted key, altered bytes, another app or sequence).
    public func signedInstalled(_ appID: String) throws(PackageError) -> InstalledPackage? {
        guard PackageManifest.appIDProblem(appID) == nil, let link = StoreFiles.linkTarget(appPath(appID) + "/current") else { return nil }
        let version = appPath(appID) + "/" + link
        let manifest = try signedVersions.manifest(version) { () throws(PackageError) in
            let archive = URL(fileURLWithPath: version + "/" + Self.signedArchiveName)
            do throws(PackageError) {
                guard StoreFiles.exists(archive.path) else {
                    throw .io(path: archive.path, reason: "missing: this version, installed before packages kept their signed archive, cannot be checked against its signature (package remove \(appID), then install it again)")
                }
                // Expiry guards installing, not using what was installed while valid.
                let signed = try VerifiedPackage.verify(file: archive, trust: trust, limits: limits, now: .distantPast).manifest
                guard signed.appID == appID, link == "versions/\(signed.sequence)" else {
                    throw .invalidManifest("\(link) of \(appID) holds the signed package of \(signed.appID) sequence \(signed.sequence)")
                }
                return signed
            } catch {
                // Once per version: the answer is kept, so later requests do not report it again.
                reportServingFailure(appID: appID, "the installed \(link) of \(appID) is refused: \(error)")
                throw error
            }
        }
        let previous = StoreFiles.linkTarget(appPath(appID) + "/previous").flatMap { Self.readManifest(appPath(appID) + "/" + $0) }
        return InstalledPackage(manifest: manifest, root: URL(fileURLWithPath: version + "/files"),
                                trustedSequence: max(readTrustedSequence(appID), manifest.sequence),
                                previousSequence: previous?.sequence)
    }

    /// Every installed app whose active version verifies (``signedInstalled(_:)``); each one that
    /// does not is reported as a `failed` event and left out.
    public func signedList() -> [InstalledPackage] {
        StoreFiles.contents(appsPath).compactMap { appID in
            try? signedInstalled(appID)
        }
    }

    /// A `failed` event for something found wrong while serving (not installing).
    func reportServingFailure(appID: String?, _ reason: String) {
        observer?(.failed(appID: appID, reason: reason))
    }
}
