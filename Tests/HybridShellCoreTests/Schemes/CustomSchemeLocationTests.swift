import Foundation
@testable import HybridShellCore
import Testing

@Suite("Custom schemes as origins and page locations (pure)")
struct CustomSchemeLocationTests {
    @Test func aCustomSchemePageIsAFirstClassOriginForTheBridge() throws {
        #expect(OriginPolicy.opening("app:///index.html").allows(origin: "app://"))
        #expect(!OriginPolicy.opening("app:///index.html").allows(origin: "app://other"))
        #expect(OriginPolicy.opening("app://dist/index.html").allows(origin: "app://dist"))
        #expect(!OriginPolicy.opening("app://dist/index.html").allows(origin: "https://dist"))
        #expect(try OriginPattern(parsing: "app://").description == "app://")
        #expect(throws: ShellError.self) { try OriginPattern(parsing: "https://") }
        #expect(OriginPolicy.opening("data:text/html,x").patterns.isEmpty)
    }

    @Test func registeredSchemesAreAcceptedAsPageLocations() throws {
        #expect(try PageLocation.resolve("app:///index.html", currentDirectory: "/", customSchemes: ["app"]) == "app:///index.html")
        #expect(throws: ShellError.self) { try PageLocation.resolve("app:///index.html", currentDirectory: "/") }
        var route = WebRoute("app:///index.html")
        route.customSchemes = ["app"]
        #expect(try route.request().url == "app:///index.html")
    }

    @Test(arguments: ["http", "https", "file", "data", "about", "blob", "", "9app", "a b"])
    func reservedOrInvalidSchemesCannotBeRegistered(scheme: String) {
        #expect(throws: ShellError.self) { try SchemeRegistration(scheme: scheme, handler: SchemeHandlerClosure { _ in .error(404, "") }) }
    }
}
