import ArgumentParser
import HybridShell

/// `--expires` is checked with the other flags: a date that cannot be read is a usage error
/// (exit 4), not a refused package (6), and nothing is signed or written.
protocol PackageExpiryCheck: CheckedCommand {
    var expires: String? { get }
}

extension PackageExpiryCheck {
    func checkFlags() throws {
        do {
            _ = try parseExpiry(expires)
        } catch .invalidManifest(let message) {
            throw ValidationError(message)
        }
    }
}

extension PackagePack: PackageExpiryCheck {}
extension PackageIndexCommand: PackageExpiryCheck {}
