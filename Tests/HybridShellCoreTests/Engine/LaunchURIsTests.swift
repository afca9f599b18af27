import Foundation
@testable import HybridShellCore
import Testing

@Suite("hybrid-run app's launch URLs and the window geometry it keeps")
struct LaunchURIsTests {
    func check(_ arguments: [String], schemes: [String] = ["shop"]) -> Result<[String], ShellError> {
        Result { () throws(ShellError) in try LaunchURIs.check(arguments, appID: "org.example.Shop", schemes: schemes, directory: "/home/me") }
    }

    @Test func declaredSchemesAndFilesPass() throws {
        #expect(try check(["shop://orders/42", "SHOP:cart", "receipt.pdf", "/tmp/a b.txt", "file:///tmp/x"]).get()
                == ["shop://orders/42", "SHOP:cart", "file:///home/me/receipt.pdf", "file:///tmp/a%20b.txt", "file:///tmp/x"])
        #expect(try check([]).get() == [])
    }

    @Test(arguments: [
        (["https://evil.example/"], #"org.example.Shop does not open https: links (its schemes: shop); refused "https://evil.example/""#),
        (["javascript:alert(1)"], #"org.example.Shop does not open javascript: links (its schemes: shop); refused "javascript:alert(1)""#),
        (["shop://a b"], #""shop://a b" is not a URL (spaces or control characters)"#),
        ([""], "an empty argument is neither a URL nor a file"),
    ])
    func otherURLsAreRefused(arguments: [String], message: String) {
        guard case .failure(let error) = check(arguments) else { Issue.record("accepted \(arguments)"); return }
        #expect(error.description == message)
    }

    @Test func anAppWithoutSchemesSaysSo() {
        guard case .failure(let error) = check(["shop://x"], schemes: []) else { Issue.record("accepted"); return }
        #expect(error.description.contains("(it declares no schemes)"))
    }

    @Test func geometryIsWrittenWholeAndDamagedFilesAreIgnored() throws {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("window-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(WindowGeometry.read(from: path) == nil)
        let geometry = WindowGeometry(width: 900, height: 700, x: -20, y: 40, maximized: true)
        try geometry.write(to: path)
        #expect(WindowGeometry.read(from: path) == geometry)
        for damaged in ["{", #"{"width":5,"height":700,"x":0,"y":0,"maximized":false}"#, "[]"] {
            try damaged.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(WindowGeometry.read(from: path) == nil, "\(damaged)")
        }
    }
}
