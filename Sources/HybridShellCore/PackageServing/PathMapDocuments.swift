import Foundation

/// Which path-map entries would map a document: a mapped document would load at `app://<appid>`
/// instead of its online origin (the `--package` mode's job, not the path map's), so none is
/// mapped. A document is told by the file's content type (``ContentTypes/forFile(_:)``: HTML,
/// XHTML, SVG, XML — extensions compared without regard to case) and by the online URL a page
/// would navigate to (the same types, or a directory URL ending in `/`, which serves an index page).
package enum PathMapDocuments {
    /// Content types a browser renders as a document with its own origin (scripts run in them).
    static let documentTypes: Set<String> = ["text/html", "application/xhtml+xml", "image/svg+xml", "application/xml", "text/xml"]

    /// Whether a package file of this name is a document.
    package static func isDocument(file: String) -> Bool {
        isDocumentType(ContentTypes.forFile(file))
    }

    /// Whether an online URL names a document (by its path's extension, or a directory).
    package static func isDocument(url: URL) -> Bool {
        let path = url.path(percentEncoded: true)
        return path.isEmpty || path.hasSuffix("/") || isDocument(file: path)
    }

    static func isDocumentType(_ contentType: String) -> Bool {
        let essence = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return documentTypes.contains(essence) || essence.hasSuffix("+xml") && essence != "application/manifest+json"
    }
}
