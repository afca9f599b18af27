import Foundation
import HybridShell
import Testing

@Suite("files module headless: a configured choice, atomic saves, bad names")
@EngineActor
struct FilesModuleTests {
    @Test func chooseIsAnsweredByConfigurationAndSaveWritesIntoTheDataDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modules-files-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let chosen = Fixtures.page("modules/second.html").path
        let fixture = try await ModuleFixture([.files], dataDirectory: directory, configure: { $0.fileChoice = chosen })
        let page = try await fixture.openApp()
        let choice = try await page.run("return await wx.chooseImage()")
        let url = try #require(choice["tempFilePaths"]?[0]?.stringValue)
        #expect(url.hasPrefix("hybrid-file://"), "the page gets a URL, not the path: \(url)")
        #expect((choice["tempFiles"]?[0]?["size"]?.doubleValue ?? 0) > 0)
        let read = try await page.run("return await (await fetch(url)).text()", ["url": .string(url)])
        #expect(read == .string(try String(contentsOfFile: chosen, encoding: .utf8)))
        let video = try await page.run("return await wx.chooseVideo()")
        #expect(video["tempFilePath"]?.stringValue?.hasPrefix("hybrid-file://") == true, "\(video)")
        // Another origin cannot read the chosen file through the URL.
        let other = try await fixture.openOther()
        let refused = try await other.run("try { return (await fetch(url)).status } catch (e) { return 'refused' }", ["url": .string(url)])
        #expect(refused == 403 || refused == "refused", "\(refused)")

        let saved = directory + "/files/http_127.0.0.1_\(fixture.app.port)"
        let text = try await page.hybridCall("files.save", ["name": "note.txt", "data": "héllo"])
        #expect(text["ok"]?["path"] == .string(saved + "/note.txt"))
        #expect(try String(contentsOfFile: saved + "/note.txt", encoding: .utf8) == "héllo")
        let binary = try await page.hybridCall("files.save", ["name": "bytes.bin", "data": "AAEC/w==", "encoding": "base64"])
        #expect(binary["ok"]?["size"] == 4)
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved + "/bytes.bin")) == Data([0, 1, 2, 255]))

        for name in ["../escape.txt", "a/b.txt", ".hidden", "..", ""] {
            let refused = try await page.hybridCall("files.save", ["name": .string(name), "data": "x"])
            #expect(refused["error"]?["code"] == "INVALID_MESSAGE", "\(name): \(refused)")
        }
        let badBase64 = try await page.hybridCall("files.save", ["name": "x.bin", "data": "not base64!", "encoding": "base64"])
        #expect(badBase64["error"]?["message"] == "files.save: data is not valid base64")
        #expect(try FileManager.default.contentsOfDirectory(atPath: saved).sorted() == ["bytes.bin", "note.txt"],
                "nothing else, not even a temporary file, was left")
        await fixture.close()
    }

    /// Issue 31, item 12: names with control or bidi characters are refused, a taken name is
    /// never overwritten, and each origin saves into its own folder.
    @Test func saveRefusesControlAndBidiNamesNeverOverwritesAndSeparatesOrigins() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modules-files-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixture = try await ModuleFixture([.files], grants: { [try Capability(grant: "\($0)=files")] }, dataDirectory: directory)
        let page = try await fixture.openApp()
        for name in ["two\nlines.txt", "invoice\u{202E}fdp.exe", "tab\t.txt", "nul\u{0}.txt", "mark\u{200F}.txt", "esc\u{1B}[31m.txt"] {
            let refused = try await page.hybridCall("files.save", ["name": .string(name), "data": "x"])
            #expect(refused["error"]?["code"] == "INVALID_MESSAGE", "\(name.debugDescription): \(refused)")
            #expect(refused["error"]?["message"]?.stringValue?.hasPrefix("files.save: name must be a plain file name") == true)
        }
        let folder = directory + "/files/http_127.0.0.1_\(fixture.app.port)"
        let first = try await page.hybridCall("files.save", ["name": "note.txt", "data": "one"])
        let second = try await page.hybridCall("files.save", ["name": "note.txt", "data": "two"])
        let third = try await page.hybridCall("files.save", ["name": "README", "data": "r1"])
        let fourth = try await page.hybridCall("files.save", ["name": "README", "data": "r2"])
        #expect(first["ok"]?["path"] == .string(folder + "/note.txt"))
        #expect(second["ok"]?["path"] == .string(folder + "/note (2).txt"), "\(second)")
        #expect(fourth["ok"]?["path"] == .string(folder + "/README (2)"), "\(third) \(fourth)")
        #expect(try String(contentsOfFile: folder + "/note.txt", encoding: .utf8) == "one", "not overwritten")
        #expect(try String(contentsOfFile: folder + "/note (2).txt", encoding: .utf8) == "two")

        let other = try await fixture.openOther()
        let elsewhere = try await other.hybridCall("files.save", ["name": "note.txt", "data": "other"])
        #expect(elsewhere["ok"]?["path"] == .string(directory + "/files/http_127.0.0.1_\(fixture.other.port)/note.txt"), "\(elsewhere)")
        #expect(try String(contentsOfFile: folder + "/note.txt", encoding: .utf8) == "one")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["README", "README (2)", "note (2).txt", "note.txt"],
                "no temporary file left")
        await fixture.close()
    }

    @Test func aChoiceThatCannotBeReadDoesNotTellThePageItsPath() async throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("secret-folder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: secret, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        for choice in [secret, secret + "/missing.txt"] {
            let fixture = try await ModuleFixture([.files], configure: { $0.fileChoice = choice })
            let page = try await fixture.openApp()
            let refused = try await page.hybridCall("files.choose")
            #expect(refused["error"]?["code"] == "HANDLER_ERROR", "\(refused)")
            #expect(refused.jsonText.contains("secret-folder") == false, "\(refused)")
            await fixture.close()
        }
    }

    @Test func withoutAConfiguredChoiceHeadlessChoosingIsCancelled() async throws {
        let fixture = try await ModuleFixture([.files])
        let page = try await fixture.openApp()
        let cancelled = try await page.hybridCall("files.choose")
        #expect(cancelled["error"]?["code"] == "CANCELLED")
        await fixture.close()
    }
}
