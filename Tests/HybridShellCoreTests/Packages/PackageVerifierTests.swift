import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShellCore

@Suite struct PackageVerifierTests {
    @Test func packerIsDeterministicAndVerifies() throws {
        let f = try PackageFixtures()
        let site = try f.site("site", PackageFixtures.v1)
        let a = try f.pack(site, "a.zip", sequence: 1), b = try f.pack(site, "b.zip", sequence: 1)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
        let verified = try VerifiedPackage.verify(file: a, trust: f.trust)
        #expect(verified.manifest.files.map(\.path) == ["css/site.css", "index.html", "js/app.js"])
        #expect(verified.keyID == f.key.publicKey.keyID)
    }

    @Test func keyFilesRoundTripAndRejectGarbage() throws {
        let f = try PackageFixtures()
        try Data(f.key.fileText.utf8).write(to: f.path("k.key"))
        try Data(f.key.publicKey.fileText.utf8).write(to: f.path("k.pub"))
        #expect(try PackageSigningKey(contentsOf: f.path("k.key")).publicKey == f.key.publicKey)
        #expect(try PackagePublicKey(contentsOf: f.path("k.pub")) == f.key.publicKey)
        #expect(throws: PackageError.self) { try PackagePublicKey(contentsOf: f.path("k.key")) }
        #expect(throws: PackageError.self) { try PackagePublicKey(text: "hybridshell-package-key-v1 ed25519-public AAAA") }
        #expect(throws: PackageError.self) { try TrustedKeys([]) }
        #expect(try TrustedKeys(texts: [f.key.publicKey.fileText, f.otherKey.publicKey.fileText]).keys.count == 2)
        #expect(throws: PackageError.invalidKeyFile(path: "trusted_keys[0]", reason: "this is a ed25519-private key, expected ed25519-public")) {
            try TrustedKeys(texts: [f.key.fileText])
        }
        #expect(throws: PackageError.self) { try TrustedKeys([f.key.publicKey, f.otherKey.publicKey, PackageSigningKey().publicKey]) }
    }

    @Test func untrustedKeyIsRefusedAndSecondSlotIsAccepted() throws {
        let f = try PackageFixtures()
        let file = try f.pack(try f.site("site", PackageFixtures.v1), "p.zip", sequence: 1, key: f.otherKey)
        #expect(throws: PackageError.untrustedKey(keyID: f.otherKey.publicKey.keyID)) {
            try VerifiedPackage.verify(file: file, trust: f.trust)
        }
        let both = try TrustedKeys([f.key.publicKey, f.otherKey.publicKey])
        #expect(try VerifiedPackage.verify(file: file, trust: both).keyID == f.otherKey.publicKey.keyID)
    }

    @Test func missingOrTruncatedSignatureIsRefused() throws {
        let f = try PackageFixtures()
        let file = try f.pack(try f.site("site", PackageFixtures.v1), "p.zip", sequence: 1)
        let data = try Data(contentsOf: file)
        for cut in [1, 10, 111, 112, 200, data.count - 30] {
            try data.prefix(data.count - cut).write(to: f.path("cut.zip"))
            do {
                _ = try VerifiedPackage.verify(file: f.path("cut.zip"), trust: f.trust)
                Issue.record("a package cut by \(cut) bytes verified")
            } catch {
                #expect(error.isRefusal, "cut \(cut): \(error)")
            }
        }
        var unsigned = RawZip()
        unsigned.add(.init("manifest.json", String(repeating: " ", count: 300)))
        try unsigned.bytes().write(to: f.path("unsigned.zip"))
        #expect(throws: PackageError.missingSignature("the archive has no signature comment (not signed, or truncated)")) {
            try VerifiedPackage.verify(file: f.path("unsigned.zip"), trust: f.trust)
        }
    }

    /// Every bit of the signature comment, flipped one at a time, is refused — the random trials
    /// below found base64's spare bits (ignored by a decoder) once in a few runs; this finds them always.
    @Test func everyBitFlipInTheSignatureCommentIsRefused() throws {
        let f = try PackageFixtures()
        let good = try Data(contentsOf: f.pack(try f.site("site", PackageFixtures.v1), "p.zip", sequence: 1))
        #expect(good.count > PackageSignature.lineLength)
        for bit in (good.count - PackageSignature.lineLength) * 8 ..< good.count * 8 {
            var bad = good
            bad[bit / 8] ^= UInt8(1 << (bit % 8))
            try bad.write(to: f.path("flipped.zip"))
            do {
                _ = try VerifiedPackage.verify(file: f.path("flipped.zip"), trust: f.trust)
                Issue.record("flipping bit \(bit) of the signature comment was accepted")
            } catch {
                #expect(error.isRefusal, "bit \(bit): \(error)")
            }
        }
    }

    /// Every single-bit flip anywhere in the archive is refused, and the installed version stays.
    @Test func thousandRandomBitFlipsAreEachRefused() throws {
        let f = try PackageFixtures()
        let store = f.store()
        try store.install(file: f.pack(try f.site("v1", PackageFixtures.v1), "v1.zip", sequence: 1))
        let good = try Data(contentsOf: f.pack(try f.site("v2", PackageFixtures.v2), "v2.zip", sequence: 2))
        var generator = SystemRandomNumberGenerator()
        var refused = 0
        for trial in 0..<1000 {
            var bad = good
            let bit = Int.random(in: 0..<(bad.count * 8), using: &generator)
            bad[bit / 8] ^= UInt8(1 << (bit % 8))
            try bad.write(to: f.path("flipped.zip"))
            do {
                try store.install(file: f.path("flipped.zip"))
                Issue.record("trial \(trial): flipping bit \(bit) was accepted")
            } catch {
                #expect(error.isRefusal, "bit \(bit): \(error)")
                refused += 1
            }
        }
        #expect(refused == 1000)
        let active = try #require(store.installed("demo"))
        #expect(active.sequence == 1 && treeVerifies(active))
        #expect(StoreFiles.contents(store.stagingPath).isEmpty)
    }

    @Test(arguments: [
        ("files/../x", "parent directory (..) in path"),
        ("/abs", "absolute path"),
        ("files/a\\..\\b", "backslash in name (a Windows path separator)"),
        ("files/a\u{0}b", "NUL in name"),
        ("C:/x", "drive letter in path"),
        ("files/a//b", "empty path component"),
        ("files/dir/", "directory entry"),
        ("files/other.txt", "not listed in the manifest"),
        ("other/index.html", "not under files/ and not the manifest"),
    ])
    func unsafeEntryNamesAreRefused(name: String, reason: String) throws {
        let f = try PackageFixtures()
        let file = try f.crafted("bad.zip", entries: [.init("files/index.html", "hi"), .init(name, "x")], listed: ["index.html": "hi"])
        #expect(throws: PackageError.unsafeEntry(name: name, reason: reason)) { try VerifiedPackage.verify(file: file, trust: f.trust) }
    }

    @Test func symlinksHardLinksBadNamesAndCollisionsAreRefused() throws {
        let f = try PackageFixtures()
        let listed = ["index.html": "hi", "Index.html": "hi"]
        let cases: [(String, [RawZip.Entry], [String: String], PackageError)] = [
            ("symlink", [.init("files/index.html", "/etc/passwd", mode: 0o120777)], ["index.html": "/etc/passwd"],
             .unsafeEntry(name: "files/index.html", reason: "symbolic link")),
            ("fifo", [.init("files/index.html", "hi", mode: 0o010644)], ["index.html": "hi"],
             .unsafeEntry(name: "files/index.html", reason: "device, FIFO or socket entry")),
            ("hard link", [.init("files/index.html", "hi"), .init(name: Data("files/b.html".utf8), data: Data("hi".utf8), aliasOf: 1)],
             ["index.html": "hi", "b.html": "hi"], .unsafeEntry(name: "files/b.html", reason: "shares its data with files/index.html (a hard link)")),
            ("non-UTF-8", [.init("files/index.html", "hi"), .init(name: Data([0x66, 0x69, 0x6C, 0x65, 0x73, 0x2F, 0xFF, 0xFE]), data: Data("x".utf8))],
             ["index.html": "hi"], .unsafeEntry(name: "0x66696c65732ffffe", reason: "name is not valid UTF-8")),
            ("duplicate", [.init("files/index.html", "hi"), .init("files/index.html", "hi")], ["index.html": "hi"],
             .unsafeEntry(name: "files/index.html", reason: "duplicate entry")),
        ]
        for (label, entries, files, expected) in cases {
            let file = try f.crafted("\(label).zip", entries: entries, listed: files)
            #expect(throws: expected, "\(label)") { try VerifiedPackage.verify(file: file, trust: f.trust) }
        }
        // Case-colliding names cannot even be listed in a manifest.
        let collide = try f.crafted("case.zip", entries: [.init("files/index.html", "hi"), .init("files/Index.html", "hi")], listed: listed)
        #expect(throws: PackageError.invalidManifest("files Index.html and index.html differ only in case")) {
            try VerifiedPackage.verify(file: collide, trust: f.trust)
        }
    }

    @Test func entryWithWrongContentIsRefusedWhileExtracting() throws {
        let f = try PackageFixtures()
        // The manifest promises "hi"; the entry holds "ho": same size, other hash.
        let file = try f.crafted("swap.zip", entries: [.init("files/index.html", "ho")], listed: ["index.html": "hi"])
        #expect(throws: PackageError.hashMismatch(path: "index.html")) { try f.store().install(file: file) }
        #expect(f.store().installed("demo") == nil)
    }

    @Test func zipBombsAreRefusedByRatioCountAndSize() throws {
        let f = try PackageFixtures()
        let zeros = String(repeating: "0", count: 3 << 20)
        let bomb = try f.pack(try f.site("bomb", ["index.html": zeros]), "bomb.zip", sequence: 1)
        #expect(throws: PackageError.self) { try VerifiedPackage.verify(file: bomb, trust: f.trust) }
        do { _ = try VerifiedPackage.verify(file: bomb, trust: f.trust) } catch {
            guard case .limitExceeded(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("expands"))
        }
        let many = try f.pack(try f.site("many", Dictionary(uniqueKeysWithValues: (0..<30).map { ("f\($0).html", "x") })
            .merging(["index.html": "i"]) { a, _ in a }), "many.zip", sequence: 1)
        #expect(throws: PackageError.limitExceeded("32 entries, the limit is 11")) {
            try VerifiedPackage.verify(file: many, trust: f.trust, limits: PackageLimits(maximumEntries: 10))
        }
        #expect(throws: PackageError.limitExceeded("the tree is 31 bytes, the limit is 20")) {
            try VerifiedPackage.verify(file: many, trust: f.trust, limits: PackageLimits(maximumTotalBytes: 20))
        }
    }

    @Test func expiredManifestIsRefused() throws {
        let f = try PackageFixtures()
        let file = try f.pack(try f.site("site", PackageFixtures.v1), "p.zip", sequence: 1, expires: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(throws: PackageError.expired(what: "package demo 1.1.0", expires: "2023-11-14T22:13:20Z")) {
            try VerifiedPackage.verify(file: file, trust: f.trust)
        }
        #expect(try VerifiedPackage.verify(file: file, trust: f.trust, now: Date(timeIntervalSince1970: 1_600_000_000)).manifest.sequence == 1)
    }

    @Test(arguments: ["", "a/../b", "/x", "a\\b", ".", "a/./b", "a/", "x\u{7}"])
    func manifestPathRulesRejectUnsafePaths(path: String) {
        #expect(PackagePath.problem(path) != nil)
    }

    @Test func manifestRulesRejectBadFields() throws {
        let file = PackageManifest.File(path: "index.html", size: 1, sha256: String(repeating: "a", count: 64))
        let bad: [PackageManifest] = [
            PackageManifest(appID: "../x", version: "1", sequence: 1, entry: "index.html", files: [file]),
            PackageManifest(appID: "a", version: "1", sequence: 0, entry: "index.html", files: [file]),
            PackageManifest(appID: "a", version: "1", sequence: 1, expires: "tomorrow", entry: "index.html", files: [file]),
            PackageManifest(appID: "a", version: "1", sequence: 1, entry: "missing.html", files: [file]),
            PackageManifest(appID: "a", version: "1", sequence: 1, entry: "index.html", files: [file, file]),
            PackageManifest(appID: "a", version: "1", sequence: 1, entry: "index.html", files: [file], pathMap: ["/x": "nope"]),
            PackageManifest(appID: "a", version: "1", sequence: 2, entry: "index.html", files: [file],
                            base: .init(sequence: 3, treeSHA256: String(repeating: "b", count: 64), deletes: [])),
        ]
        for manifest in bad {
            #expect(throws: PackageError.self) { try manifest.validate() }
        }
        #expect(throws: PackageError.self) { try PackageManifest.decode(Data("{\"format\":1}".utf8)) }
    }
}
