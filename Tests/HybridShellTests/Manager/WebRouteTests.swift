import HybridShell
import Testing

@Suite("Web routes and URL templates (pure)")
struct WebRouteTests {
    let noFiles: (String) -> PageLocation.FileKind? = { _ in nil }

    @Test(arguments: [
        ("https://x/app?token={token}", ["token": "123"], "https://x/app?token=123"),
        ("https://x/{lang}/app", ["lang": "zh-CN"], "https://x/zh-CN/app"),
        ("https://x/search?q={q}&n=1", ["q": "a b&c=d/é"], "https://x/search?q=a%20b%26c%3Dd%2F%C3%A9&n=1"),
        ("https://x/{path}", ["path": "a/b c"], "https://x/a%2Fb%20c"),
        ("https://x/p#{section}", ["section": "intro part"], "https://x/p#intro%20part"),
        ("https://x/路径?名={v}", ["v": "值"], "https://x/%E8%B7%AF%E5%BE%84?%E5%90%8D=%E5%80%BC"),
        ("https://x/plain", [:], "https://x/plain"),
    ] as [(String, [String: String], String)])
    func fillsAndEncodes(template: String, parameters: [String: String], expected: String) throws {
        #expect(try WebRoute(template, parameters: parameters).request(fileKind: noFiles).url == expected)
    }

    @Test(arguments: [
        ("https://x/{lang}", [:], "URL template placeholder {lang} has no value (give --param lang=…)"),
        ("https://x/", ["lang": "en"], "parameter lang matches no placeholder (the URL has no placeholders)"),
        ("https://x/{a}", ["a": "1", "b": "2"], "parameter b matches no placeholder (the URL has {a})"),
        ("https://x/{lang", ["lang": "en"], #"URL template "https://x/{lang" has a { without a }"#),
        ("https://x/lang}", [:], #"URL template "https://x/lang}" has a } without a {"#),
        ("https://x/{}", [:], #"URL template "https://x/{}" has an invalid placeholder {}"#),
        ("ftp://x/{a}", ["a": "1"], #"invalid URL "ftp://x/1": unsupported scheme 'ftp' (use one of: http, https, file, about, data)"#),
    ] as [(String, [String: String], String)])
    func refusesBeforeAnythingLoads(template: String, parameters: [String: String], message: String) {
        do {
            _ = try WebRoute(template, parameters: parameters).request(fileKind: noFiles)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func headersAreCheckedAndTheCachePolicyAddsOne() throws {
        #expect(throws: ShellError.self) { try WebRoute.Header(parsing: "X-Bad: a\r\nInjected: 1") }
        #expect(throws: ShellError.self) { try WebRoute.Header(parsing: "no colon") }
        #expect(throws: ShellError.self) { try WebRoute.Header(parsing: "Bad Name: 1") }
        let header = try WebRoute.Header(parsing: "X-Token:  1 ")
        #expect(header == WebRoute.Header(name: "X-Token", value: "1"))
        let route = WebRoute("https://x/", headers: [header], cachePolicy: .reloadIgnoringCache)
        #expect(try route.request(fileKind: noFiles).headers == [header, WebRoute.Header(name: "Cache-Control", value: "no-cache")])
        let bad = WebRoute("https://x/", headers: [WebRoute.Header(name: "X", value: "a\nb")])
        #expect(throws: ShellError.self) { try bad.request(fileKind: noFiles) }
    }

    @Test(arguments: [("https://shop.example/*", "https://shop.example/cart", true), ("https://shop.example/*", "https://evil.example/", false),
                      ("*", "about:blank", true), ("https://*.example/*/cart", "https://a.example/de/cart", true),
                      ("https://a.example/", "https://a.example/", true), ("https://a.example/", "https://a.example/x", false)])
    func urlPatterns(pattern: String, url: String, matches: Bool) {
        #expect(URLPattern.matches(pattern, url) == matches)
    }
}
