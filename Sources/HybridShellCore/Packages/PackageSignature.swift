import Crypto
import Foundation

/// A detached Ed25519 signature line, `HSSIG1 KEYID BASE64` (exactly 112 bytes), over a domain
/// string followed by the SHA-256 of the signed bytes. A package carries it as its zip archive
/// comment, covering every byte of the archive before the comment; an index carries it in
/// `index.json.sig`. The domain keeps a package signature from being replayed as an index one.
public struct PackageSignature: Sendable, Equatable {
    public enum Domain: String, Sendable {
        case package = "HybridShell package v1\n"
        case index = "HybridShell index v1\n"
    }

    static let magic = "HSSIG1"
    static let lineLength = 112

    public let keyID: String
    let signature: Data

    static func message(_ domain: Domain, digest: some Sequence<UInt8>) -> Data {
        Data(domain.rawValue.utf8) + Data(digest)
    }

    static func sign(_ domain: Domain, digest: SHA256.Digest, with key: PackageSigningKey) throws(PackageError) -> PackageSignature {
        PackageSignature(keyID: key.publicKey.keyID, signature: try key.signature(for: message(domain, digest: digest)))
    }

    /// The signature line's bytes.
    var line: Data { Data("\(Self.magic) \(keyID) \(signature.base64EncodedString())".utf8) }

    /// Parses a signature line; anything else is a missing signature.
    static func parse(_ data: Data) throws(PackageError) -> PackageSignature {
        let text = String(decoding: data, as: UTF8.self)
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard data.count == lineLength, words.count == 3, words[0] == magic, words[1].count == 16,
              words[1].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let signature = Data(base64Encoded: String(words[2])), signature.count == 64,
              // Base64 has spare bits (the last character before "==" carries 2 of its 6): a
              // decoder ignores them, so only the canonical text is accepted, or a flipped spare
              // bit would leave a package that still verifies.
              signature.base64EncodedString() == words[2] else {
            throw .missingSignature("the signature line is malformed or truncated")
        }
        return PackageSignature(keyID: String(words[1]), signature: signature)
    }

    /// Checks the signature against the trusted keys.
    func verify(_ domain: Domain, digest: some Sequence<UInt8>, trust: TrustedKeys) throws(PackageError) {
        guard let key = trust.key(withID: keyID) else { throw .untrustedKey(keyID: keyID) }
        guard key.isValidSignature(signature, for: Self.message(domain, digest: digest)) else {
            throw .badSignature("the signed bytes were altered (key \(keyID))")
        }
    }
}
