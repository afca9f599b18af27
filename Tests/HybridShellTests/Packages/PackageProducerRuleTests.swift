import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Issue 31 item 16: what `verify` and `pack` let through that an installer or a user would regret.
@Suite struct PackageProducerRuleTests {
    /// A 256-byte name verifies but cannot be created (NAME_MAX): install used to fail with an I/O
    /// error (exit 2) after verification said OK. Refused at verification now, as an unsafe entry.
    @Test func aPathComponentOver255BytesIsRefusedAtVerify() throws {
        let f = try PackageFixtures()
        let long = String(repeating: "a", count: 256) + ".js"
        #expect(PackagePath.problem("js/" + long) == "a path component longer than 255 bytes")
        #expect(PackagePath.problem("js/" + String(repeating: "a", count: 255)) == nil)
        let file = try f.crafted("long.zip", entries: [.init("files/index.html", "hi"), .init("files/" + long, "x")], listed: ["index.html": "hi", long: "x"])
        #expect(throws: PackageError.invalidManifest("file \"\(long)\": a path component longer than 255 bytes")) {
            try VerifiedPackage.verify(file: file, trust: f.trust)
        }
    }

    /// `{"sequence":1,…,"sequence":99}`: JSONDecoder takes the first, other readers the last.
    @Test func aManifestWithADuplicateKeyIsRefused() throws {
        let manifest = PackageManifest(appID: "demo", version: "1", sequence: 1, entry: "index.html",
                                       files: [.init(path: "index.html", size: 2, sha256: SHA256Hex.digest(Data("hi".utf8)))])
        let good = manifest.canonicalBytes()
        #expect(try PackageManifest.decode(good) == manifest)
        var text = String(decoding: good, as: UTF8.self)
        text.removeLast()
        text += ",\"sequence\":99}"
        #expect(throws: PackageError.self) { try PackageManifest.decode(Data(text.utf8)) }
        do { _ = try PackageManifest.decode(Data(text.utf8)) } catch {
            #expect(error.description.contains("duplicate key \"sequence\""), "\(error)")
        }
        // Also nested: a file listed with two hashes.
        let nested = String(decoding: good, as: UTF8.self).replacingOccurrences(of: "\"size\":2", with: "\"size\":2,\"size\":3")
        #expect(throws: PackageError.self) { try PackageManifest.decode(Data(nested.utf8)) }
    }

    @Test func hiddenFilesAreLeftOutUnlessAsked() throws {
        let f = try PackageFixtures()
        let site = try f.site("site", ["index.html": "hi", ".env": "SECRET=1", ".git/config": "[core]", "js/.cache/x": "x", "js/app.js": "1"])
        #expect(PackageBuilder.hiddenEntries(site) == [".env", ".git/", "js/.cache/"])
        let (_, manifest) = try PackageBuilder(key: f.key).pack(directory: site, options: .init(appID: "demo", version: "1", sequence: 1))
        #expect(manifest.files.map(\.path) == ["index.html", "js/app.js"])
        var options = PackageBuilder.Options(appID: "demo", version: "1", sequence: 1)
        options.includeHidden = true
        let (_, all) = try PackageBuilder(key: f.key).pack(directory: site, options: options)
        #expect(all.files.map(\.path) == [".env", ".git/config", "index.html", "js/.cache/x", "js/app.js"])
    }

    @Test func expiryDatesInThePastAreRefusedAndABareDateLastsThroughItsDay() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
        #expect(try PackageExpiry.parse("2027-01-31", now: now) == PackageManifest.date("2027-01-31T23:59:59Z"))
        #expect(try PackageExpiry.parse("2027-01-15", now: now) == PackageManifest.date("2027-01-15T23:59:59Z"), "today is still valid")
        #expect(try PackageExpiry.parse("2027-01-31T12:00:00Z", now: now) == PackageManifest.date("2027-01-31T12:00:00Z"))
        for past in ["2027-01-14", "2027-01-15T07:59:59Z", "2000-01-01"] {
            #expect(throws: PackageError.self, "\(past)") { try PackageExpiry.parse(past, now: now) }
        }
        #expect(throws: PackageError.self) { try PackageExpiry.parse("next tuesday", now: now) }
    }

    @Test func packNotesTheHiddenEntriesItLeavesOutAndRefusesAPastExpiry() async throws {
        let f = try PackageFixtures()
        let key = f.path("rel").path
        #expect(try await CommandLineRun.run(["package", "keygen", "--output", key]).status == 0)
        let site = try f.site("site", ["index.html": "hi", ".env": "SECRET=1"]).path
        let common = [site, "--app-id", "demo", "--app-version", "1", "--sequence", "1", "--key", key + ".key"]
        let pack = try await CommandLineRun.run(["package", "pack"] + common + ["--output", f.path("p.zip").path])
        #expect(pack.status == 0 && pack.stderr.contains("left out 1 hidden entry (.env); --include-hidden packs them"), "\(pack.stderr)")
        let listed = try VerifiedPackage.verify(file: f.path("p.zip"), trust: try TrustedKeys(files: [URL(fileURLWithPath: key + ".pub")]))
        #expect(listed.manifest.files.map(\.path) == ["index.html"])
        let past = try await CommandLineRun.run(["package", "pack"] + common + ["--output", f.path("q.zip").path, "--expires", "2020-01-01"])
        #expect(past.status != 0 && past.stderr.contains("in the past"), "\(past.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.path("q.zip").path))
    }
}
