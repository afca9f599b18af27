import Foundation
import HybridShell
import Testing

extension PageTestCommandLineTests {
    /// Issue 15: `hybrid-run test` gives test pages the built-in modules, deterministic (private
    /// clipboard, configured network, file choice and modal answers), every page with its own
    /// storage and clipboard; `--handlers` mocks still replace module handlers.
    @Suite("hybrid-run test with native modules")
    struct ModulePageTestTests {
        static let directory = "pages/fixtures/test/modules/"
        static let config = directory + "modules.toml"

        @Test(arguments: [1, 2])
        func pagesUsingStorageSystemAndWxPassAndStartEmpty(workers: Int) async throws {
            let run = try await PageTestRun.run([Self.directory + "a.html", Self.directory + "b.html", "--config", Self.config,
                                                 "--workers", String(workers), "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
            #expect(run.counts() == ["passed": 14, "failed": 0, "skipped": 0, "todo": 0])
        }

        /// Shared state really shares storage and the clipboard: the second page sees what the first
        /// left (so the isolated run above could fail).
        @Test func sharedStateSharesStorageAndClipboard() async throws {
            let run = try await PageTestRun.run([Self.directory + "a.html", Self.directory + "b.html", "--config", Self.config,
                                                 "--shared-state", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 1, "stdout: \(run.stdout)")
            #expect(run.test("pages/fixtures/test/modules/b.html", "storage starts empty")?["status"] == "failed", "\(run.stdout)")
            #expect(run.counts("pages/fixtures/test/modules/a.html")["failed"] == 0)
        }

        @Test func mocksReplaceModuleHandlers() async throws {
            // storage.get answers "mocked value" whatever was set and clipboard.get fails: the tests
            // reading those fail, the others (storage.set, system, ui, files) still reach the modules.
            let run = try await PageTestRun.run([Self.directory + "a.html", "--config", Self.config,
                                                 "--handlers", "pages/fixtures/modules/mocks.json", "--screenshot", "off"])
            defer { run.cleanUp() }
            let page = "pages/fixtures/test/modules/a.html"
            for name in ["storage starts empty", "storage round trip through wx", "clipboard is private and starts with the configured text"] {
                #expect(run.test(page, name)?["status"] == "failed", "\(name): \(run.stdout)")
            }
            #expect(run.counts(page) == ["passed": 4, "failed": 3, "skipped": 0, "todo": 0], "\(run.stdout)")
        }

        @Test func flagsEnableModulesAndBadNamesAreUsageErrors() async throws {
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("test-modules-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: data) }
            // --modules without the config: no file choice (CANCELLED), network from GLib; storage in --data-dir.
            let run = try await PageTestRun.run([Self.directory + "a.html", "--modules", "storage,system", "--data-dir", data,
                                                 "--screenshot", "off"])
            defer { run.cleanUp() }
            let page = "pages/fixtures/test/modules/a.html"
            #expect(run.test(page, "storage round trip through wx")?["status"] == "passed", "\(run.stdout)")
            #expect(run.test(page, "a chosen file is read through a hybrid-file URL")?["status"] == "failed", "files is not enabled")
            #expect(FileManager.default.fileExists(atPath: data + "/" + StorageModule.fileName), "storage was kept in --data-dir")

            let bad = try await PageTestRun.run([Self.directory + "a.html", "--modules", "storage,teleport"])
            defer { bad.cleanUp() }
            #expect(bad.status == 4)
            #expect(bad.stderr.contains(#"--modules: unknown module "teleport""#), "\(bad.stderr)")
            let badGrant = try await PageTestRun.run([Self.directory + "a.html", "--modules", "storage", "--grant", "https://x.example=warp"])
            defer { badGrant.cleanUp() }
            #expect(badGrant.status == 4)
            #expect(badGrant.stderr.contains("--grant: unknown module"), "\(badGrant.stderr)")
        }
    }
}
