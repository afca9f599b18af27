import Foundation
import HybridShell

/// The adapters of `hybrid-run doctor`: each reads one fact from the machine (environment, PATH,
/// a helper program's answer, the file system) and decides nothing. A probe that cannot run leaves
/// its fact nil; ``DoctorVerdicts`` says what that means.
enum DoctorProbes {
    /// Everything but the painting, which needs the engine's loop (``paint()``).
    static func gather(environment: [String: String], dataDirectory: String) -> DoctorFacts {
        var facts = DoctorFacts()
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        facts.display = .init(x11: environment["DISPLAY"], wayland: environment["WAYLAND_DISPLAY"],
                              gdkBackend: environment["GDK_BACKEND"], xvfb: find("Xvfb", in: path))
        facts.webKitVersion = WebContext.engineVersion
        facts.renderer.dmabufDisabledByEnvironment = !(environment["WEBKIT_DISABLE_DMABUF_RENDERER"] ?? "").isEmpty
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).filter { $0.hasPrefix("renderD") }.sorted()
        facts.renderer.renderNode = nodes.map { "/dev/dri/" + $0 }.first { access($0, R_OK | W_OK) == 0 }
        if let inspect = find("gst-inspect-1.0", in: path), let listing = output(of: inspect, []) {
            facts.gstreamerElements = gstreamerElements(listing: listing)
        }
        facts.webDriver = find("WebKitWebDriver", in: path)
        if let fcMatch = find("fc-match", in: path) {
            facts.font = output(of: fcMatch, ["sans-serif"])?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        facts.bubblewrap = find("bwrap", in: path)
        if let bwrap = facts.bubblewrap {
            facts.bubblewrapWorks = output(of: bwrap, ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-all", "/bin/true"]) != nil
        }
        facts.dataDirectory = directory(dataDirectory)
        facts.temporaryDirectoryWritable = access(FileManager.default.temporaryDirectory.path, W_OK | X_OK) == 0
        return facts
    }

    /// The element names of `gst-inspect-1.0`'s listing ("plugin:  element: description" lines).
    static func gstreamerElements(listing: String) -> Set<String> {
        var names = Set<String>()
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2)
            guard fields.count == 3, !fields[0].contains(" ") else { continue }
            let element = fields[1].trimmingCharacters(in: .whitespaces)
            if !element.isEmpty, !element.contains(" ") { names.insert(element) }
        }
        return names
    }

    /// The data directory's state: missing ones are judged by their nearest existing ancestor.
    static func directory(_ path: String) -> DoctorFacts.DataDirectory {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        var existing = URL(fileURLWithPath: path)
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" { existing.deleteLastPathComponent() }
        return .init(path: path, exists: exists, isDirectory: isDirectory.boolValue,
                     writable: (!exists || isDirectory.boolValue) && access(existing.path, W_OK | X_OK) == 0)
    }

    /// Paints a page of ``DoctorVerdicts/probeColour`` in a real window (the renderer a `--window`
    /// run or a kiosk uses) and reads its middle pixel back from a snapshot.
    @EngineActor
    static func paint() async -> DoctorFacts.Paint {
        do {
            let context = try WebContext(configuration: WebContextConfiguration(headless: false))
            var configuration = WebViewConfiguration()
            configuration.window = .visible(title: "hybrid-run doctor")
            (configuration.width, configuration.height) = (200, 200)
            let view = try WebView(configuration: configuration, context: context)
            defer { view.close() }
            let loaded = Handoff<Bool>()
            let token = view.observe { event in
                if case .loadFinished(_, let succeeded) = event { loaded.fulfill(succeeded) }
            }
            defer { token.cancel() }
            let colour = String(DoctorVerdicts.probeColour, radix: 16)
            view.load(html: "<!doctype html><html style=\"background:#\(colour)\"><body></body></html>")
            guard try await loaded.value(timeout: .seconds(20), "load of the test page") else { return .failed("the test page did not load") }
            let pixel = Handoff<Result<UInt32, ShellError>>()
            Task { @EngineActor in
                do throws(ShellError) { pixel.fulfill(.success(try await view.snapshotPixel(x: 100, y: 100))) } catch { pixel.fulfill(.failure(error)) }
            }
            return try await pixel.value(timeout: .seconds(10), "snapshot").map(DoctorFacts.Paint.read).get()
        } catch {
            return .failed("\(error)")
        }
    }

    static func find(_ program: String, in path: String) -> String? {
        let candidates: [String] = path.split(separator: ":").map { String($0) + "/" + program }
        return candidates.first { access($0, X_OK) == 0 }
    }

    /// A helper program's stdout, or nil when it failed or ran over 20 s (`timeout` ends it).
    static func output(of program: String, _ arguments: [String]) -> String? {
        let process = Process()
        let limited = access("/usr/bin/timeout", X_OK) == 0
        process.executableURL = URL(fileURLWithPath: limited ? "/usr/bin/timeout" : program)
        process.arguments = limited ? ["20", program] + arguments : arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
