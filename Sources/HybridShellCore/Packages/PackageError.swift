/// Everything that can go wrong producing, verifying, installing or updating an offline package,
/// with the context to say what. ``isRefusal`` separates "this input is not acceptable" (a bad
/// signature, a rollback, an unsafe entry name) from "the work could not be done" (I/O, network).
public enum PackageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key file that cannot be read or is not in the key file format.
    case invalidKeyFile(path: String, reason: String)
    /// No trusted key was configured, or more than the two slots.
    case trustConfiguration(String)
    /// The archive carries no signature (no comment, a truncated file, a malformed signature line).
    case missingSignature(String)
    /// The signature names a key that is not among the trusted ones.
    case untrustedKey(keyID: String)
    /// The signature does not match the signed bytes (the file was altered or damaged).
    case badSignature(String)
    /// The file is not a readable zip archive, or its manifest cannot be read.
    case malformedArchive(String)
    /// The manifest is not valid (bad JSON, missing fields, unsafe paths, duplicate files...).
    case invalidManifest(String)
    /// An archive entry that may not be extracted (`../x`, `/abs`, a symlink, a name not in the manifest...).
    case unsafeEntry(name: String, reason: String)
    /// The archive exceeds a limit (entry count, total size, compression ratio): a possible zip bomb.
    case limitExceeded(String)
    /// A file's bytes do not match the size or SHA-256 its manifest lists.
    case hashMismatch(path: String)
    /// The package is for another app than the one asked for.
    case wrongApp(expected: String, found: String)
    /// The package's sequence is older than the trusted one (a rollback attack).
    case rollback(appID: String, offered: Int64, trusted: Int64)
    /// The package's sequence is the one already trusted: nothing to install.
    case alreadyInstalled(appID: String, sequence: Int64)
    /// The manifest or index expired (a freeze attack, or a stale mirror).
    case expired(what: String, expires: String)
    /// An incremental package whose base is not the installed tree (mix-and-match); use the full package.
    case baseMismatch(appID: String, reason: String)
    /// No such installed app, or no previous version to roll back to.
    case notInstalled(String)
    /// A download that failed, was cut, or was longer than its signed size.
    case download(url: String, reason: String)
    /// The disk is full (or the package does not fit in the free space).
    case diskFull(String)
    /// Any other file-system failure, with the path and the system's message.
    case io(path: String, reason: String)

    /// Whether the input was refused (as opposed to the work failing for an outside reason).
    public var isRefusal: Bool {
        switch self {
        case .download, .diskFull, .io, .notInstalled, .trustConfiguration, .invalidKeyFile: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .invalidKeyFile(let path, let reason): "key file \(path): \(reason)"
        case .trustConfiguration(let message): message
        case .missingSignature(let message): "no valid signature: \(message)"
        case .untrustedKey(let keyID): "signed by key \(keyID), which is not a trusted key"
        case .badSignature(let message): "signature does not verify: \(message)"
        case .malformedArchive(let message): "not a valid package archive: \(message)"
        case .invalidManifest(let message): "invalid manifest: \(message)"
        case .unsafeEntry(let name, let reason): "refused archive entry \(Self.printable(name)): \(reason)"
        case .limitExceeded(let message): "limit exceeded (possible zip bomb): \(message)"
        case .hashMismatch(let path): "\(path): content does not match the manifest's size and SHA-256"
        case .wrongApp(let expected, let found): "package is for app \(found), not \(expected)"
        case .rollback(let app, let offered, let trusted):
            "\(app): sequence \(offered) is older than the trusted sequence \(trusted) (rollback refused)"
        case .alreadyInstalled(let app, let sequence): "\(app): sequence \(sequence) is already installed"
        case .expired(let what, let expires): "\(what) expired at \(expires) (refused as stale)"
        case .baseMismatch(let app, let reason): "\(app): incremental package does not apply: \(reason)"
        case .notInstalled(let message): message
        case .download(let url, let reason): "download of \(url) failed: \(reason)"
        case .diskFull(let message): "disk full: \(message)"
        case .io(let path, let reason): "\(path): \(reason)"
        }
    }

    /// A name with control characters and NULs made visible, so an error line stays one line.
    static func printable(_ name: String) -> String {
        var out = "\""
        for scalar in name.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\" {
                out += String(format: "\\u%04X", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
