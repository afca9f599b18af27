import Foundation
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Issue 31 item 11: the path map never maps a document, whatever the letter case or the type.
@Suite struct PathMapDocumentTests {
    static func installed(_ pathMap: [String: String], files: [String]) -> InstalledPackage {
        let manifest = PackageManifest(appID: "shop", version: "1", sequence: 1, entry: files[0],
                                       files: files.map { .init(path: $0, size: 1, sha256: String(repeating: "a", count: 64)) }, pathMap: pathMap)
        return InstalledPackage(manifest: manifest, root: URL(fileURLWithPath: "/x"), trustedSequence: 1, previousSequence: nil)
    }

    @Test func documentFilesAreNeverMapped() {
        let documents = ["Index.HTML", "page.Htm", "page.xhtml", "logo.svg", "LOGO.SVG", "feed.xml", "doc.XHTML"]
        let package = Self.installed(Dictionary(uniqueKeysWithValues: documents.map { ("https://h5.example/app/\($0).js", $0) })
                                        .merging(["https://h5.example/app/app.js": "app.js"]) { a, _ in a },
                                     files: documents + ["app.js"])
        #expect(PathMapExtension.map([package]) == ["https://h5.example/app/app.js": "app://shop/app.js"])
    }

    @Test func documentURLsAreNeverMappedEvenToAScript() {
        let package = Self.installed(["https://h5.example/app/Page.HTML": "app.js", "https://h5.example/app/": "app.js",
                                      "https://h5.example/app/pic.SVG": "app.js", "https://h5.example": "app.js",
                                      "https://h5.example/app/app.js": "app.js", "https://h5.example/app/Img.PNG": "img.png"],
                                     files: ["app.js", "img.png"])
        #expect(PathMapExtension.map([package]) == ["https://h5.example/app/app.js": "app://shop/app.js",
                                                    "https://h5.example/app/Img.PNG": "app://shop/img.png"])
    }

    @Test(arguments: [("text/html; charset=utf-8", true), ("application/xhtml+xml", true), ("image/svg+xml", true),
                      ("TEXT/HTML", true), ("application/xml", true), ("text/javascript; charset=utf-8", false),
                      ("application/json", false), ("application/manifest+json", false), ("image/png", false)])
    func documentTypes(type: String, isDocument: Bool) {
        #expect(PathMapDocuments.isDocumentType(type) == isDocument)
    }
}
