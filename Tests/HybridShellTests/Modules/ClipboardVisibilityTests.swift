import Foundation
import HybridShell
import Testing

/// Only the page the user sees may use the clipboard: a page under another one on the stack, or in
/// a hidden window, gets `DENIED` (reason `pageHidden`) unless a capability grants
/// `clipboard.background`. Before, any page of the stack could read and replace the clipboard.
@Suite("The clipboard needs a visible page")
@EngineActor
struct ClipboardVisibilityTests {
    @Test func aPageUnderAnotherIsRefusedAndTheTopPageIsServed() async throws {
        let fixture = try await ModuleFixture([.clipboard])
        let below = try await fixture.openApp()
        #expect(try await below.hybridCall("clipboard.set", ["data": "mine"]) == ["ok": nil])
        let top = try await fixture.open(fixture.app.url("fixtures/modules/second.html"))
        #expect(fixture.manager.top === top)

        for (handler, data) in [("clipboard.get", JSONValue.null), ("clipboard.set", ["data": "overwritten"])] {
            let refused = try await below.hybridCall(handler, data)
            #expect(refused["error"]?["code"] == "DENIED", "\(handler): \(refused)")
            #expect(refused["error"]?["details"]?["reason"] == "pageHidden")
            #expect(refused["error"]?["message"] == .string("\(handler): only the visible page may use the clipboard (another page is on top of it); grant clipboard.background to allow it"))
        }
        #expect(try await top.hybridCall("clipboard.get") == ["ok": ["data": "mine"]], "the refused set changed nothing")
        await fixture.close()
    }

    @Test func aHiddenWindowIsRefused() async throws {
        let fixture = try await ModuleFixture([.clipboard])  // views in offscreen windows
        let page = try await fixture.openApp()
        #expect(try await page.hybridCall("clipboard.get")["ok"] != nil)
        page.view.setVisible(false)
        let refused = try await page.hybridCall("clipboard.get")
        #expect(refused["error"]?["details"]?["reason"] == "pageHidden", "\(refused)")
        #expect(refused["error"]?["message"]?.stringValue?.contains("(its view is hidden)") == true)
        page.view.setVisible(true)
        #expect(try await page.hybridCall("clipboard.get")["ok"] != nil)
        await fixture.close()
    }

    @Test func aCapabilityLetsABackgroundPageUseIt() async throws {
        let fixture = try await ModuleFixture([.clipboard], grants: { other in
            [Capability(origins: [try OriginPattern(parsing: other)], modules: ["clipboard"], handlers: [ClipboardVisibility.backgroundGrant])]
        })
        let below = try await fixture.openOther()
        _ = try await fixture.openApp()
        #expect(try await below.hybridCall("clipboard.set", ["data": "granted"]) == ["ok": nil])
        #expect(try await below.hybridCall("clipboard.get") == ["ok": ["data": "granted"]])
        await fixture.close()
    }

    @Test(arguments: [
        (true, true, false, nil),
        (false, true, false, "another page is on top of it"),
        (true, false, false, "its view is hidden"),
        (false, false, true, nil),
    ] as [(Bool, Bool, Bool, String?)])
    func decision(onTop: Bool, shown: Bool, granted: Bool, why: String?) {
        let refusal = ClipboardVisibility.refusal(handler: "clipboard.get", isOnTop: onTop, isShown: shown, backgroundGranted: granted)
        #expect(refusal?.message.contains(why ?? "-") ?? (why == nil), "\(String(describing: refusal))")
        #expect(refusal.map { $0.code == .denied } ?? true)
    }
}
