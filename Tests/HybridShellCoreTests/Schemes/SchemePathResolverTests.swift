@testable import HybridShellCore
import Testing

@Suite("SchemePathResolver: request paths to files under a root (pure)")
struct SchemePathResolverTests {
    /// A fake tree: /srv/app with index.html, a.js, sub/, sub/index.html, link → /etc/passwd,
    /// inner → /srv/app/a.js; /srv/app-other/x next to it.
    static let files: [String: SchemePathResolver.Kind] = [
        "/srv/app": .directory, "/srv/app/index.html": .file, "/srv/app/a.js": .file, "/srv/app/sub": .directory,
        "/srv/app/sub/index.html": .file, "/srv/app/empty": .directory, "/etc/passwd": .file, "/srv/app-other/x": .file,
        "/srv/app/weird name.txt": .file,
    ]
    static let links = ["/srv/app/link": "/etc/passwd", "/srv/app/inner": "/srv/app/a.js",
                        "/srv/app/sibling": "/srv/app-other/x", "/srv/root-link": "/srv/app"]

    static func resolver(root: String = "/srv/app") -> SchemePathResolver {
        SchemePathResolver(root: root, realPath: { path in
            let target = links[path] ?? path
            return files[target] != nil ? target : nil
        }, kind: { files[$0] })
    }

    @Test(arguments: [
        ("/", SchemePathResolver.Resolution.file("/srv/app/index.html")),
        ("/index.html", .file("/srv/app/index.html")),
        ("/a.js", .file("/srv/app/a.js")),
        ("/sub/", .file("/srv/app/sub/index.html")),
        ("/sub", .file("/srv/app/sub/index.html")),
        ("/inner", .file("/srv/app/a.js")),
        ("/weird%20name.txt", .file("/srv/app/weird name.txt")),
        ("/missing", .notFound),
        ("/empty/", .notFound),
    ])
    func servesWhatIsInsideTheRoot(path: String, expected: SchemePathResolver.Resolution) {
        #expect(Self.resolver().resolve(path) == expected)
    }

    @Test(arguments: [
        "/..%2fetc/passwd", "/..%2Fetc%2Fpasswd", "/sub/..%2f..%2fetc/passwd", "/..%5cetc", "/sub\\..\\..\\etc",
        "/a.js%00.html", "/%00", "//etc/passwd", "/sub//index.html", "/..", "/.", "/sub/../a.js", "/%2e%2e/etc/passwd",
        "/.git/config", "/link", "/sibling", "relative", "/a\u{1}b", "/%zz",
    ])
    func refusesEveryWayOut(path: String) {
        let resolution = Self.resolver().resolve(path)
        guard case .forbidden = resolution else {
            Issue.record("\(path) resolved to \(resolution)")
            return
        }
    }

    @Test func aSymlinkedRootIsResolvedFirst() {
        #expect(Self.resolver(root: "/srv/root-link").resolve("/a.js") == .file("/srv/app/a.js"))
    }

    @Test func aPrefixSiblingIsNotInsideTheRoot() {
        // /srv/app-other starts with "/srv/app" but is not under it.
        #expect(Self.resolver().resolve("/sibling") == .forbidden("the path leaves the root through a symbolic link"))
    }
}
