/// Whether a verified package may replace what is installed, decided from the manifest and the
/// store's state alone: the pure half of an install.
enum InstallDecision: Equatable {
    case full
    /// Apply on top of the active version.
    case incremental

    /// - Parameters:
    ///   - trustedSequence: the highest sequence ever installed for the app (0 when none).
    ///   - active: the active version's manifest, if any.
    static func decide(_ manifest: PackageManifest, expectedApp: String?, trustedSequence: Int64,
                       active: PackageManifest?) throws(PackageError) -> InstallDecision {
        if let expectedApp, expectedApp != manifest.appID { throw .wrongApp(expected: expectedApp, found: manifest.appID) }
        if manifest.sequence == trustedSequence { throw .alreadyInstalled(appID: manifest.appID, sequence: manifest.sequence) }
        if manifest.sequence < trustedSequence {
            throw .rollback(appID: manifest.appID, offered: manifest.sequence, trusted: trustedSequence)
        }
        guard let base = manifest.base else { return .full }
        guard let active else { throw .baseMismatch(appID: manifest.appID, reason: "nothing is installed to apply it to") }
        guard active.sequence == base.sequence else {
            throw .baseMismatch(appID: manifest.appID, reason: "it applies to sequence \(base.sequence), sequence \(active.sequence) is active")
        }
        guard active.treeHash == base.treeSHA256 else {
            throw .baseMismatch(appID: manifest.appID, reason: "the active tree's hash differs from the base it was made for")
        }
        return .incremental
    }
}
