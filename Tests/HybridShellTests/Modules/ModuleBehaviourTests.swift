import Foundation
import HybridShell
import Testing

@Suite("Navigation, system, clipboard and ui modules in real WebKit")
@EngineActor
struct ModuleBehaviourTests {
    @Test func navigationPushesReplacesAndPopsPagesOnTheManagersStack() async throws {
        let fixture = try await ModuleFixture([.navigation])
        let first = try await fixture.openApp()
        let firstLifecycle = LifecycleRecorder(first)
        let pushed = Handoff<Bool>()
        let opened = try await first.run("return await new Promise(r => wx.navigateTo({ url: 'second.html', success: r, fail: r }))")
        #expect(opened["errMsg"] == "navigateTo:ok", "\(opened)")
        #expect(fixture.manager.stack.count == 2)
        let second = try #require(fixture.manager.top)
        #expect(second.url == fixture.app.url("fixtures/modules/second.html"))
        second.bridge.observe { if case .ready = $0 { pushed.fulfill(true) } }
        if second.bridge.currentSession == nil { _ = try await pushed.value(timeout: .seconds(30), "the second page's bridge") }
        #expect(try await second.hybridCall("navigation.setTitle", ["title": "Second"]) == ["ok": nil])
        let pages = try await second.hybridCall("navigation.pages")
        #expect(pages["ok"]?.arrayValue?.map { $0["isCaller"] } == [false, true])

        let foreign = try await second.hybridCall("navigation.open", ["url": "https://elsewhere.example/"])
        #expect(foreign["error"]?["code"] == "DENIED")
        #expect(foreign["error"]?["details"]?["reason"] == "urlNotAllowed")
        let notURL = try await second.hybridCall("navigation.open", ["url": "javascript:alert(1)"])
        #expect(notURL["error"]?["code"] == "INVALID_MESSAGE")
        let badDelta = try await second.hybridCall("navigation.back", ["delta": 0])
        #expect(badDelta["error"]?["message"] == "navigation.back: delta must be between 1 and 64, not 0")
        #expect(fixture.manager.stack.count == 2, "refused navigations change nothing")

        let secondLifecycle = LifecycleRecorder(second)
        let closed = try await second.run("return await wx.navigateBack({ delta: 5 })")
        #expect(closed["closed"] == 1, "never the last page")
        try await secondLifecycle.wait(.unload)
        #expect(fixture.manager.stack.count == 1)
        #expect(fixture.manager.top === first)
        try await firstLifecycle.wait(.show)
        #expect(firstLifecycle.events.contains(.hide), "the pushed page hid the first one: \(firstLifecycle.events)")
        let alone = try await first.hybridCall("navigation.back")
        #expect(alone["error"]?["details"]?["reason"] == "noPage")
        await fixture.close()
    }

    @Test func localRoutesAreCheckedAndRedirectReplacesTheCaller() async throws {
        let fixture = try await ModuleFixture([.navigation], opened: Fixtures.pageURL("modules/index.html"))
        let page = try await fixture.open(Fixtures.pageURL("modules/index.html"))
        let unknown = try await page.hybridCall("navigation.open", ["url": "no-such-page.html"])
        #expect(unknown["error"]?["details"]?["reason"] == "unknownRoute", "\(unknown)")
        #expect(unknown["error"]?["message"]?.stringValue?.hasPrefix(#"unknown route "no-such-page.html""#) == true)
        let wx = try await page.run("return await wx.navigateTo({ url: 'missing.html' }).then(() => 'ok', e => e.errMsg)")
        #expect(wx.stringValue?.hasPrefix(#"navigateTo:fail unknown route "missing.html""#) == true, "\(wx)")
        #expect(try await page.hybridCall("navigation.open", ["url": "second.html"])["ok"]?["pageId"] != nil)
        #expect(fixture.manager.stack.count == 2)
        // wx.redirectTo: the caller's page is replaced by the new one.
        let pageLifecycle = LifecycleRecorder(page)
        let replaced = try await page.run("return await wx.redirectTo({ url: 'index.html?replaced' })")
        #expect(replaced["errMsg"] == "redirectTo:ok")
        try await pageLifecycle.wait(.unload)
        #expect(fixture.manager.stack.count == 2)
        #expect(!fixture.manager.stack.contains { $0 === page })
        #expect(fixture.manager.top?.url.hasSuffix("modules/index.html?replaced") == true)
        await fixture.close()
    }

    @Test func systemReportsInfoLocaleScreenAndAConfiguredNetworkStatus() async throws {
        let fixture = try await ModuleFixture([.system], configure: { $0.networkOverride = .offline })
        let page = try await fixture.openApp()
        let info = try await page.run("return await new Promise(r => wx.getSystemInfo({ success: r }))")
        #expect(info["errMsg"] == "getSystemInfo:ok")
        #expect(info["engine"] == "WebKitGTK")
        #expect(info["language"]?.stringValue?.isEmpty == false)
        #expect((info["screenWidth"]?.doubleValue ?? 0) > 0, "Xvfb's screen")
        #expect(info["windowMode"] == "headless")
        #expect(info["userAgent"]?.stringValue?.contains("AppleWebKit") == true)
        let network = try await page.run("return await wx.getNetworkType()")
        #expect(network["networkType"] == "none")
        #expect(network["isConnected"] == false)
        #expect(try await page.run("return wx.getSystemInfoSync().shell") == "HybridShell")
        let extra = try await page.hybridCall("system.network", ["verbose": true])
        #expect(extra["error"]?["code"] == "INVALID_MESSAGE")
        await fixture.close()
    }

    @Test func networkChangesArePushedOnlyToPagesAllowedToSeeThem() async throws {
        let fixture = try await ModuleFixture([.system])
        let app = try await fixture.openApp()
        let next = "window.nextChange = new Promise(r => wx.onNetworkStatusChange(r)); return 1"
        try await app.run(next)
        fixture.host.emit(SystemModule.networkEvent, data: ["isConnected": false, "networkType": "none"])
        #expect(try await app.run("return await nextChange") == ["isConnected": false, "networkType": "none"])
        let other = try await fixture.openOther()
        try await other.run("window.changes = []; wx.onNetworkStatusChange(s => changes.push(s)); return 1")
        try await app.run(next)
        fixture.host.emit(SystemModule.networkEvent, data: ["isConnected": true, "networkType": "unknown"])
        #expect(try await app.run("return await nextChange") == ["isConnected": true, "networkType": "unknown"])
        // Both pushes left in the same turn of the loop; the other page's would have arrived by now.
        _ = try await other.run("return 1")
        #expect(try await other.run("return changes.length") == 0, "the other origin has no system capability")
        await fixture.close()
    }

    @Test func headlessClipboardIsPrivateAndModalsAreAnsweredByPolicy() async throws {
        let fixture = try await ModuleFixture([.clipboard, .ui], configure: { $0.clipboardText = "seed"; $0.modalConfirms = false })
        let page = try await fixture.openApp()
        let report = try await page.run("""
            const r = {};
            r.initial = (await wx.getClipboardData()).data;
            r.set = (await wx.setClipboardData({ data: 'copied ✓' })).errMsg;
            r.after = (await wx.getClipboardData()).data;
            r.modal = await wx.showModal({ title: 'Delete?', content: 'Really?' });
            r.alert = await wx.showModal({ content: 'OK only', showCancel: false });
            r.toast = (await wx.showToast({ title: 'Saved' })).errMsg;
            r.badToast = await wx.showToast({ title: 'x', icon: 'fireworks' }).then(() => 'ok', e => e.errMsg);
            r.badClipboard = await wx.setClipboardData({ data: 42 }).then(() => 'ok', e => e.errMsg);
            return r;
            """)
        #expect(report["initial"] == "seed")
        #expect(report["set"] == "setClipboardData:ok")
        #expect(report["after"] == "copied ✓")
        #expect(report["modal"]?["confirm"] == false)
        #expect(report["modal"]?["cancel"] == true)
        #expect(report["alert"]?["confirm"] == true)
        #expect(report["toast"] == "showToast:ok")
        #expect(report["badToast"] == #"showToast:fail ui.showToast: icon must be success, error, loading or none, not "fireworks""#)
        #expect(report["badClipboard"] == "setClipboardData:fail clipboard.set: data should be a string, not a number")
        await fixture.close()
    }
}
