import Crypto
import Foundation

/// An Ed25519 key pair's public half as a package consumer trusts it. Key files are one line of
/// text: `hybridshell-package-key-v1 ed25519-public BASE64` (and `ed25519-private` for the secret
/// half written by ``PackageSigningKey``). The key id is the first 8 bytes of the SHA-256 of the raw
/// 32-byte public key, in hex; signatures name it so an error can say which key signed.
public struct PackagePublicKey: Sendable, Equatable {
    /// The raw 32 bytes (kept as bytes: swift-crypto's key types are not Sendable).
    let raw: Data
    /// 16 hex digits naming the key.
    public let keyID: String

    init(_ key: Curve25519.Signing.PublicKey) {
        raw = key.rawRepresentation
        keyID = Self.keyID(raw)
    }

    /// Parses the text of a `.pub` file (or a config `trusted_keys` string of the same form).
    public init(text: String, source: String = "trusted key") throws(PackageError) {
        let raw = try KeyFileLine.parse(text, kind: "ed25519-public", source: source)
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
            throw .invalidKeyFile(path: source, reason: "not an Ed25519 public key")
        }
        self.init(key)
    }

    /// Reads a `.pub` file.
    public init(contentsOf url: URL) throws(PackageError) {
        try self.init(text: try KeyFileLine.read(url), source: url.path)
    }

    /// The `.pub` file's text.
    public var fileText: String { KeyFileLine.format(kind: "ed25519-public", raw) }

    func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        (try? Curve25519.Signing.PublicKey(rawRepresentation: raw))?.isValidSignature(signature, for: message) ?? false
    }

    static func keyID(_ raw: Data) -> String { String(SHA256Hex.digest(raw).prefix(16)) }
}

/// The private half, used by the producer's `pack`. Never needed on the consuming machine.
public struct PackageSigningKey: Sendable {
    /// The raw 32 bytes (kept as bytes: swift-crypto's key types are not Sendable).
    let raw: Data

    /// A new random key pair.
    public init() { raw = Curve25519.Signing.PrivateKey().rawRepresentation }

    private var key: Curve25519.Signing.PrivateKey {
        // `raw` was checked when this value was made.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: raw)
    }

    /// Reads a `.key` file.
    public init(contentsOf url: URL) throws(PackageError) {
        let raw = try KeyFileLine.parse(try KeyFileLine.read(url), kind: "ed25519-private", source: url.path)
        guard (try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)) != nil else {
            throw .invalidKeyFile(path: url.path, reason: "not an Ed25519 private key")
        }
        self.raw = raw
    }

    public var publicKey: PackagePublicKey { PackagePublicKey(key.publicKey) }

    /// The `.key` file's text.
    public var fileText: String { KeyFileLine.format(kind: "ed25519-private", raw) }

    func signature(for message: Data) throws(PackageError) -> Data {
        do { return try key.signature(for: message) } catch { throw .io(path: "signing", reason: "\(error)") }
    }
}

/// The configured trust: one or two public keys (two slots, so a new key can be rolled out before
/// the old one is retired). Never taken from a package.
public struct TrustedKeys: Sendable, Equatable {
    public let keys: [PackagePublicKey]

    public init(_ keys: [PackagePublicKey]) throws(PackageError) {
        guard !keys.isEmpty else { throw .trustConfiguration("no trusted key: pass --trust NAME.pub (or set trusted_keys)") }
        guard keys.count <= 2 else { throw .trustConfiguration("at most two trusted keys (the current and the next), not \(keys.count)") }
        self.keys = keys
    }

    /// Reads `.pub` files.
    public init(files: [URL]) throws(PackageError) {
        var keys = [PackagePublicKey]()
        for file in files { keys.append(try PackagePublicKey(contentsOf: file)) }
        try self.init(keys)
    }

    /// Parses `.pub` lines, as a config's `trusted_keys` array holds them.
    public init(texts: [String]) throws(PackageError) {
        var keys = [PackagePublicKey]()
        for (index, text) in texts.enumerated() { keys.append(try PackagePublicKey(text: text, source: "trusted_keys[\(index)]")) }
        try self.init(keys)
    }

    func key(withID id: String) -> PackagePublicKey? { keys.first { $0.keyID == id } }
}

/// The one-line key file format shared by both halves.
enum KeyFileLine {
    static let magic = "hybridshell-package-key-v1"

    static func format(kind: String, _ raw: Data) -> String { "\(magic) \(kind) \(raw.base64EncodedString())\n" }

    static func parse(_ text: String, kind: String, source: String) throws(PackageError) -> Data {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        guard words.count == 3, words[0] == magic else {
            throw .invalidKeyFile(path: source, reason: "expected one line \"\(magic) \(kind) BASE64\"")
        }
        guard words[1] == kind else { throw .invalidKeyFile(path: source, reason: "this is a \(words[1]) key, expected \(kind)") }
        guard let raw = Data(base64Encoded: String(words[2])), raw.count == 32, raw.base64EncodedString() == words[2] else {
            throw .invalidKeyFile(path: source, reason: "the key is not 32 bytes of base64")
        }
        return raw
    }

    static func read(_ url: URL) throws(PackageError) -> String {
        guard let data = try? Data(contentsOf: url) else { throw .invalidKeyFile(path: url.path, reason: "cannot be read") }
        guard data.count < 4096 else { throw .invalidKeyFile(path: url.path, reason: "too large for a key file") }
        return String(decoding: data, as: UTF8.self)
    }
}
