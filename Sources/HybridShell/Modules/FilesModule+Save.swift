import Foundation
import Glibc
import HybridShellCore
import HybridShellWebKit

extension FilesModule {
    /// Characters a saved file's name may not contain: control characters (a newline makes one
    /// name look like two in a listing) and the bidirectional formatting characters (U+202E makes
    /// `gpj.exe` read as `exe.jpg`).
    static func isForbiddenInName(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.isBidiControl
    }

    /// The folder of one origin's saved files inside the module's folder: origins never see or
    /// overwrite each other's. `scheme_host[_port]`, each byte of the host outside
    /// `[a-z0-9.-]` as `%XX`, so that two origins never share a folder.
    static func folderName(forOrigin origin: String) -> String {
        guard let (scheme, host, port) = WebOrigin.parse(origin) else { return "opaque" }
        let plain = Set("abcdefghijklmnopqrstuvwxyz0123456789.-".utf8)
        let safeHost = host.utf8.map { plain.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        let safeScheme = scheme.utf8.map { plain.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        return "\(safeScheme)_\(safeHost)" + (port.map { "_" + $0.filter(\.isNumber) } ?? "")
    }

    /// How many names ``saveNew(_:name:in:)`` tries before it gives up.
    static let maxCandidates = 1000

    /// The `number`th name tried for `name`: itself (1), then `stem (2).ext`, `stem (3).ext`, …
    static func candidateName(for name: String, number: Int) -> String {
        guard number > 1 else { return name }
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.utf8.count + 1))
        return ext.isEmpty ? "\(stem) (\(number))" : "\(stem) (\(number)).\(ext)"
    }

    /// Writes `bytes` as a new file named `name` (or the first free ``candidateName(for:number:)``)
    /// in `folder`, never replacing a file: the bytes go to a hidden temporary file first, which is
    /// then hard-linked under the new name (`link` fails when the name exists, so a file that
    /// appears meanwhile is not overwritten either) and unlinked. Returns the path written.
    static func saveNew(_ bytes: Data, name: String, in folder: String) throws(BridgeError) -> String {
        let fileManager = FileManager.default
        let temporary = (folder as NSString).appendingPathComponent(".saving-" + FileShares.makeToken())
        do {
            try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard fileManager.createFile(atPath: temporary, contents: bytes, attributes: [.posixPermissions: 0o644]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            try? fileManager.removeItem(atPath: temporary)
            throw BridgeError(.handlerError, "cannot save \(name): \(error.localizedDescription)", details: ["reason": "io"])
        }
        defer { unlink(temporary) }
        for number in 1...maxCandidates {
            let candidate = candidateName(for: name, number: number)
            guard candidate.utf8.count <= 255 else { continue }
            let path = (folder as NSString).appendingPathComponent(candidate)
            if link(temporary, path) == 0 { return path }
            guard errno == EEXIST else {
                throw BridgeError(.handlerError, "cannot save \(name): \(String(cString: strerror(errno)))", details: ["reason": "io"])
            }
        }
        throw BridgeError(.handlerError, "cannot save \(name): every name up to \"\(candidateName(for: name, number: maxCandidates))\" is taken",
                          details: ["reason": "exists"])
    }
}
