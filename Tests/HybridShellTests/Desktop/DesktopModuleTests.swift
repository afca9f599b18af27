import Foundation
@testable import HybridShell
import Testing

/// `notification` against a fake notification server on a private D-Bus (Tests/fake-notifications.py),
/// `print` to a PDF read back with pdftotext.
@Suite("Notification and print modules in real WebKit")
@EngineActor
struct DesktopModuleTests {
    @Test func aNotificationsActionClickAndItsClosingReachThePage() async throws {
        let fixture = try await ModuleFixture([])
        try await FakeNotificationServer.run(click: "open") { server in
            fixture.host.register(NotificationModule.module(host: fixture.host, headless: false, busAddress: server.address))
            let page = try await fixture.openApp()
            let events = try await page.run("""
                const action = new Promise(r => hybrid.on('notification.action', r));
                const closed = new Promise(r => hybrid.on('notification.closed', r));
                const shown = await hybrid.call('notification.show', {title: 'Order shipped', body: 'Parcel 42 is on its way',
                    icon: 'mail-unread', actions: [{id: 'open', label: 'Open order'}, {id: 'later', label: 'Later'}]});
                const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error('no notification events within 30 s')), 30000));
                return {shown, action: await Promise.race([action, deadline]), closed: await Promise.race([closed, deadline])};
                """)
            let notify = try #require(await server.firstNotification())
            #expect(notify["title"] == "Order shipped")
            #expect(notify["body"] == "Parcel 42 is on its way")
            #expect(notify["icon"] == "mail-unread")
            #expect(notify["actions"] == ["open", "Open order", "later", "Later"])
            #expect(notify["app"] == "HybridShell")
            #expect(events["shown"]?["id"] == notify["id"], "\(events)")
            #expect(events["action"] == ["id": notify["id"]!, "action": "open"])
            #expect(events["closed"] == ["id": notify["id"]!, "reason": "dismissed"])
            let bad = try await page.hybridCall("notification.show", ["title": "x", "icon": "/etc/passwd"])
            #expect(bad["error"]?["code"] == "INVALID_MESSAGE")
        }
        await fixture.close()
    }

    @Test func noNotificationServerIsAHandlerErrorAndPageTestsAnswerPrivately() async throws {
        let fixture = try await ModuleFixture([])
        fixture.host.register(NotificationModule.module(host: fixture.host, headless: false, busAddress: "unix:path=/nonexistent/bus"))
        let page = try await fixture.openApp()
        let missing = try await page.hybridCall("notification.show", ["title": "hello"])
        #expect(missing["error"]?["code"] == "HANDLER_ERROR", "\(missing)")
        #expect(missing["error"]?["details"]?["reason"] == "unavailable")
        await fixture.close()
        let tests = try await ModuleFixture([])
        tests.host.register(NotificationModule.module(host: tests.host, headless: true))
        let testPage = try await tests.openApp()
        #expect(try await testPage.hybridCall("notification.show", ["title": "a"]) == ["ok": ["id": 1]])
        #expect(try await testPage.hybridCall("notification.show", ["title": "b"]) == ["ok": ["id": 2]])
        await tests.close()
    }

    @Test func printPageWritesAPDFWhoseTextIsThePagesOnlyInsidePrintDirs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await ModuleFixture([.print], configure: {
            $0.printDirs = [directory.path]
            $0.printers = ["receipts"]
        })
        let page = try await fixture.open(fixture.app.url("fixtures/modules/receipt.html"))
        let file = directory.appendingPathComponent("receipt.pdf").path
        let printed = try await page.hybridCall("print.page", ["file": .string(file), "silent": true])
        #expect(printed["ok"]?["file"] == .string(file), "\(printed)")
        #expect(printed["ok"]?["url"] == .string(fixture.app.url("fixtures/modules/receipt.html")))
        let text = try await CommandLineRun.run([file, "-"], executable: "/usr/bin/pdftotext").stdout
        #expect(text.contains("Receipt 4711") && text.contains("Total 2.40 EUR"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["receipt.pdf"], "no partial file is left")

        for outside in ["/tmp/receipt.pdf", directory.path + "/../receipt.pdf", directory.path + "/.hidden.pdf"] {
            let refused = try await page.hybridCall("print.page", ["file": .string(outside), "silent": true])
            #expect(refused["error"]?["code"] == "DENIED", "\(outside): \(refused)")
            #expect(refused["error"]?["details"]?["reason"] == "pathNotAllowed")
        }
        let otherPrinter = try await page.hybridCall("print.page", ["printer": "office", "silent": true])
        #expect(otherPrinter["error"]?["details"]?["reason"] == "printerNotAllowed", "\(otherPrinter)")
        // Without a window there is no dialog to show: as a person cancelling it.
        let dialog = try await page.hybridCall("print.page")
        #expect(dialog["error"]?["code"] == "CANCELLED", "\(dialog)")
        // window.print() stays refused as before.
        #expect(try await page.run("window.print(); return 'returned'") == "returned")
        await fixture.close()
    }
}

extension DesktopModuleTests {
    /// `hybrid-run test`: notification and print answer privately (nothing reaches a desktop,
    /// CUPS or the disk), and their refusals still hold.
    @Test func pageTestsGetPrivateAnswers() async throws {
        let run = try await PageTestRun.run(["pages/fixtures/test/desktop/desktop.html", "--config", "pages/fixtures/test/desktop/desktop.toml",
                                             "--screenshot", "off"])
        defer { run.cleanUp() }
        #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(run.counts() == ["passed": 3, "failed": 0, "skipped": 0, "todo": 0])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/hybridshell-page-test-receipt.pdf"))
    }
}
