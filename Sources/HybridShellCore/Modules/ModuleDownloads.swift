import Foundation

/// Where the modules keep files they hand to pages as `hybrid-file://` URLs (http downloads): a
/// private folder (mode 0700) made for one ``ModuleHost``, and the ``FileShares`` registry that
/// serves them. A downloaded file is shared for the calling document only (its origin and bridge
/// session) and deleted when its share ends: revoked, expired, the document gone. The folder is
/// removed with the host.
public final class ModuleDownloads: Sendable {
    public let shares: FileShares
    public let directory: String

    /// - Parameter parent: where the private folder is made (the system's temporary folder).
    public init(shares: FileShares, parent: String = NSTemporaryDirectory()) {
        self.shares = shares
        directory = (parent as NSString).appendingPathComponent("hybridshell-downloads-\(ProcessInfo.processInfo.processIdentifier)-\(FileShares.makeToken().prefix(12))")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Moves a finished download (`temporary`, complete) into the private folder under a fresh
    /// name and shares it with the caller. The file appears there only whole (a rename, or a copy
    /// under a hidden name then a rename across file systems), and is deleted when the share ends.
    func adopt(_ temporary: URL, name: String, contentType: String?, for call: BridgeCall) throws(BridgeError) -> String {
        let fileManager = FileManager.default
        let target = (directory as NSString).appendingPathComponent(FileShares.makeToken())
        do {
            try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            if rename(temporary.path, target) != 0 {
                // Another file system: copy under a hidden name, then rename (never a partial file).
                let partial = (directory as NSString).appendingPathComponent(".partial-" + FileShares.makeToken())
                try fileManager.copyItem(atPath: temporary.path, toPath: partial)
                try fileManager.moveItem(atPath: partial, toPath: target)
                try? fileManager.removeItem(at: temporary)
            }
        } catch {
            try? fileManager.removeItem(at: temporary)
            throw BridgeError(.handlerError, "cannot keep the downloaded file: \(error.localizedDescription)", details: ["reason": "io"])
        }
        do {
            return try shares.share(file: target, name: name, contentType: contentType, origin: call.origin,
                                    session: call.sessionID.isEmpty ? nil : call.sessionID, deleteWhenEnded: true)
        } catch {
            // The share was refused (an opaque origin): share(…) already deleted the file.
            throw BridgeError(.handlerError, "cannot share the downloaded file with this page: \(error)", details: ["reason": "share"])
        }
    }

    /// A plain file name for a download of `url` (its last path component, or `download`).
    static func fileName(for url: URL) -> String {
        let last = url.lastPathComponent
        let cleaned = last.filter { !$0.isNewline && $0 != "/" && $0 != "\\" && $0 != "\0" }
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." || cleaned.hasPrefix(".") ? "download" : String(cleaned.prefix(200))
    }
}
