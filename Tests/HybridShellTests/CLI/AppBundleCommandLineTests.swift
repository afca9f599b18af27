import Foundation
import HybridShell
import Testing

/// Issue 33, item 5: `hybrid-run bundle` makes the `init` scaffold into a .deb that Debian's
/// validators accept, with the deep-link schemes in its desktop entry and no private key in it.
@Suite("hybrid-run bundle")
struct AppBundleCommandLineTests {
    /// A tool's run (dpkg-deb, the validators, python3).
    static func tool(_ path: String, _ arguments: [String]) async throws -> CommandLineRun {
        try await CommandLineRun.run(arguments, executable: path)
    }

    static func bundled(_ extraArguments: [String] = [], prepare: (String) throws -> Void = { _ in }) async throws -> (folder: String, deb: String, root: String) {
        let folder = try await AppCommandLineTests.scaffold()
        try prepare(folder)
        let out = folder + "/../dist"
        let started = ContinuousClock.now
        let run = try await CommandLineRun.run(["bundle", folder, "--output", out] + extraArguments,
                                               environment: ProcessInfo.processInfo.environment.merging(["SOURCE_DATE_EPOCH": "1767225600"]) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        print("bundle: \(run.stdout.trimmingCharacters(in: .newlines)) (command: \(ContinuousClock.now - started))")
        let deb = URL(fileURLWithPath: out).standardizedFileURL.path + "/org.example.Shop_0.1.0_amd64.deb"
        let root = folder + "/../root"
        let extract = try await tool("/usr/bin/dpkg-deb", ["-x", deb, root])
        #expect(extract.status == 0, "\(extract.stderr)")
        return (folder, deb, root)
    }

    @Test func theScaffoldBecomesAValidDeb() async throws {
        let (folder, deb, root) = try await Self.bundled()
        defer { try? FileManager.default.removeItem(atPath: folder + "/..") }
        let listing = try await Self.tool("/usr/bin/dpkg-deb", ["-c", deb])
        let paths = Set(listing.stdoutLines.compactMap { $0.split(separator: " ").last.map { String($0.dropFirst()) } })
        for path in ["/usr/bin/shop", "/usr/share/org.example.Shop/app.toml", "/usr/share/org.example.Shop/org.example.Shop.zip",
                     "/usr/share/org.example.Shop/keys/app.pub", "/usr/share/applications/org.example.Shop.desktop",
                     "/usr/share/icons/hicolor/scalable/apps/org.example.Shop.svg", "/usr/share/metainfo/org.example.Shop.metainfo.xml",
                     "/usr/share/doc/org.example.shop/copyright", "/usr/share/doc/org.example.shop/changelog.gz", "/usr/share/man/man1/shop.1.gz"] {
            #expect(paths.contains(path), "\(path) is missing: \(listing.stdout)")
        }
        // Never the private key: no .key file, and no file holds a private key line.
        #expect(!paths.contains { $0.hasSuffix(".key") })
        let grep = try await Self.tool("/usr/bin/grep", ["-r", "-l", "ed25519-private", root])
        #expect(grep.status == 1 && grep.stdout.isEmpty, "\(grep.stdout)")
        let depends = try await Self.tool("/usr/bin/dpkg-deb", ["-f", deb, "Depends"])
        #expect(depends.stdout == "hybrid-run (>= \(HybridShellVersion.current))\n")
        let desktop = try String(contentsOfFile: root + "/usr/share/applications/org.example.Shop.desktop", encoding: .utf8)
        #expect(desktop.contains("\nExec=shop %u\n") && desktop.contains("\nMimeType=x-scheme-handler/shop;\n"), "\(desktop)")
        let launcher = try String(contentsOfFile: root + "/usr/bin/shop", encoding: .utf8)
        #expect(launcher.contains("exec /usr/bin/hybrid-run app /usr/share/org.example.Shop/app.toml \"$@\""))
        let metainfo = try String(contentsOfFile: root + "/usr/share/metainfo/org.example.Shop.metainfo.xml", encoding: .utf8)
        #expect(metainfo.contains(#"<release version="0.1.0" date="2026-01-01"/>"#), "\(metainfo)")
        // The installed app.toml reads back: its package stands in for web/, its key beside it.
        let installed = try AppManifest.load(path: root + "/usr/share/org.example.Shop/app.toml")
        #expect(installed.preset == URL(fileURLWithPath: root).standardizedFileURL.path + "/usr/share/org.example.Shop/org.example.Shop.zip")
        let verified = try VerifiedPackage.verify(file: URL(fileURLWithPath: installed.preset!),
                                                  trust: TrustedKeys(files: installed.trustedKeys.map { URL(fileURLWithPath: $0) }))
        #expect(verified.manifest.appID == "org.example.Shop" && verified.manifest.sequence == 1000)
        let validDesktop = try await Self.tool("/usr/bin/desktop-file-validate", [root + "/usr/share/applications/org.example.Shop.desktop"])
        #expect(validDesktop.status == 0, "\(validDesktop.stdout)\(validDesktop.stderr)")
        let validMetainfo = try await Self.tool("/usr/bin/appstreamcli", ["validate", "--no-net", root + "/usr/share/metainfo/org.example.Shop.metainfo.xml"])
        #expect(validMetainfo.status == 0, "\(validMetainfo.stdout)\(validMetainfo.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: deb)[.size] as? Int ?? 0
        print("bundle: the scaffold's .deb is \(size) bytes")
    }

    /// A PNG icon is scaled to each standard size up to its own; --kiosk adds the unit and profile.
    @Test func aPngIconIsScaledAndKioskAddsAUnit() async throws {
        let (folder, deb, root) = try await Self.bundled(["--kiosk"]) { folder in
            // A 64x64 PNG, written by Python's zlib (no image library needed).
            let script = """
                import struct, sys, zlib
                def chunk(kind, data): return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
                rows = b''.join(b'\\x00' + b'\\x2a\\x6f\\xdb' * 64 for _ in range(64))
                open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 64, 64, 8, 2, 0, 0, 0))
                    + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
                """
            try script.write(toFile: folder + "/../png.py", atomically: true, encoding: .utf8)
            let made = Process()
            made.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            made.arguments = [folder + "/../png.py", folder + "/icon.png"]
            try made.run()
            made.waitUntilExit()
            var toml = try String(contentsOfFile: folder + "/app.toml", encoding: .utf8)
            toml = toml.replacingOccurrences(of: "icon = \"icon.svg\"", with: "icon = \"icon.png\"")
                .replacingOccurrences(of: "# [kiosk]", with: "[kiosk]")
            try toml.write(toFile: folder + "/app.toml", atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(atPath: folder + "/..") }
        let listing = try await Self.tool("/usr/bin/dpkg-deb", ["-c", deb])
        for size in [16, 24, 32, 48, 64] {
            #expect(listing.stdout.contains("./usr/share/icons/hicolor/\(size)x\(size)/apps/org.example.Shop.png"), "\(size)")
        }
        #expect(!listing.stdout.contains("128x128"))
        #expect(try IconScaler.size(of: root + "/usr/share/icons/hicolor/32x32/apps/org.example.Shop.png") == (32, 32))
        #expect(listing.stdout.contains("./lib/systemd/system/org.example.shop-kiosk.service"))
        let profile = try String(contentsOfFile: root + "/usr/share/org.example.Shop/kiosk.toml", encoding: .utf8)
        #expect(profile.contains("home = 'app://org.example.shop/index.html'") && profile.contains("[kiosk]"), "\(profile)")
        #expect(FileManager.default.fileExists(atPath: root + "/usr/share/org.example.Shop/web/index.html"))
    }

    @Test func badInputIsAUsageError() async throws {
        let folder = try await AppCommandLineTests.scaffold()
        defer { try? FileManager.default.removeItem(atPath: folder + "/..") }
        let noKiosk = try await CommandLineRun.run(["bundle", folder, "--output", folder + "/../dist", "--kiosk"])
        #expect(noKiosk.status == 4 && noKiosk.stderr.contains("--kiosk needs a [kiosk] table"), "\(noKiosk.stderr)")
        let keygen = try await CommandLineRun.run(["package", "keygen", "--output", folder + "/../other"])
        #expect(keygen.status == 0)
        let wrongKey = try await CommandLineRun.run(["bundle", folder, "--output", folder + "/../dist", "--key", folder + "/../other.key"])
        #expect(wrongKey.status == 4 && wrongKey.stderr.contains("is not the private half of a trusted key"), "\(wrongKey.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/../dist/org.example.Shop_0.1.0_amd64.deb"))
    }
}
