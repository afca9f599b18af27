import Foundation
import HybridShell
import Testing

@Suite("http module in real WebKit: allowed origins, methods, bodies, no redirects")
@EngineActor
struct HTTPModuleTests {
    @Test func requestsReachOnlyAllowedOriginsWithoutCORS() async throws {
        let api = try await FixtureServer.start()
        defer { api.stop() }
        api.route("/user") { _ in .text(#"{"name":"Ada","id":7}"#, type: "application/json") }
        api.route("/echo") { request in
            .text(JSONValue.object(["method": .string(request.method), "body": .string(String(decoding: request.body, as: UTF8.self)),
                                    "token": .string(request.headers["x-token"] ?? "")]).jsonText, type: "application/json")
        }
        api.route("/moved") { _ in FixtureServer.Response(status: 302, headers: ["Location": "http://127.0.0.1:1/elsewhere"], body: Data()) }
        let fixture = try await ModuleFixture([.http], configure: { $0.httpAllow = [try! OriginPattern(parsing: api.origin)] })
        let page = try await fixture.openApp()

        let user = try await page.hybridCall("http.request", ["url": .string(api.url("user"))])
        #expect(user["ok"]?["statusCode"] == 200)
        #expect(user["ok"]?["data"] == ["name": "Ada", "id": 7])
        let text = try await page.hybridCall("http.request", ["url": .string(api.url("user")), "responseType": "text"])
        #expect(text["ok"]?["data"] == #"{"name":"Ada","id":7}"#)
        let posted = try await page.run("""
            return await new Promise(r => wx.request({ url, method: 'POST', data: { a: 1 }, header: { 'X-Token': 't1' }, success: r, fail: r }))
            """, ["url": .string(api.url("echo"))])
        #expect(posted["errMsg"] == "request:ok", "\(posted)")
        #expect(posted["data"] == ["method": "POST", "body": #"{"a":1}"#, "token": "t1"])
        let moved = try await page.hybridCall("http.request", ["url": .string(api.url("moved"))])
        #expect(moved["ok"]?["statusCode"] == 302, "redirects are not followed: \(moved)")

        let elsewhere = try await page.hybridCall("http.request", ["url": .string(fixture.other.url("fixtures/modules/second.html"))])
        #expect(elsewhere["error"]?["code"] == "DENIED")
        #expect(elsewhere["error"]?["details"]?["reason"] == "urlNotAllowed")
        let badMethod = try await page.hybridCall("http.request", ["url": .string(api.url("user")), "method": "TELEPORT"])
        #expect(badMethod["error"]?["message"]?.stringValue?.hasPrefix("http.request: method must be one of") == true)
        let relative = try await page.hybridCall("http.request", ["url": "/user"])
        #expect(relative["error"]?["message"] == #"http.request: url "/user" is not an absolute http or https URL"#)
        let badHeader = try await page.hybridCall("http.request", ["url": .string(api.url("user")), "headers": ["X-A": 1]])
        #expect(badHeader["error"]?["message"] == "http.request: headers.X-A should be a string, not a number")
        // Another origin without the capability is refused before anything is sent.
        let requestsBefore = api.requests.count
        let other = try await fixture.openOther()
        for dialect in ["hybrid", "wvjb", "dsbridge", "wx"] {
            #expect(try await other.call("http.request", ["url": .string(api.url("user"))], via: dialect) == "DENIED", "via \(dialect)")
        }
        #expect(try await other.hybridCall("http.request", ["url": .string(api.url("user"))])["error"]?["details"]?["capability"] == "http")
        #expect(api.requests.count == requestsBefore)
        await fixture.close()
    }
}
