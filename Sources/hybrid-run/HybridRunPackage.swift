import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run package …`: make, check, install and update signed offline packages. No GLib loop:
/// these commands touch only files and the network. The flags gather values; ``PackageStore``,
/// ``PackageBuilder`` and ``PackageIndex`` (in the library) do the work.
struct HybridRunPackage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package",
        abstract: "Make, verify, install and update signed offline packages of an H5 app.",
        usage: "hybrid-run package SUBCOMMAND [ARGUMENTS] [OPTIONS]",
        discussion: """
            Producer:  keygen, pack, index, verify, inspect.   Machine: install, update, preset, list, rollback, remove.

            Walkthrough:
              hybrid-run package keygen --output release
              hybrid-run package pack site/ --app-id demo --app-version 1.0.0 \\
                --sequence 1 --key release.key --output out/demo-1.zip
              hybrid-run package index out/demo-1.zip --key release.key --output-dir out
              (cd out && python3 -m http.server 8000) &
              hybrid-run package update --from http://127.0.0.1:8000/ \\
                --data-dir data --trust release.pub

            Exit codes: 0 done · 2 could not be done (I/O, network, disk full, not installed) · \
            4 usage error · 6 refused: the package or index failed verification (bad or missing \
            signature, untrusted key, altered file, rollback, expired, unsafe entry, limits). \
            See docs/offline-packages.md.
            """,
        subcommands: [PackageKeygen.self, PackagePack.self, PackageIndexCommand.self, PackageVerify.self, PackageInspect.self,
                      PackageInstall.self, PackageUpdate.self, PackagePreset.self, PackageList.self,
                      PackageRollback.self, PackageRemove.self]
    )
}

/// A `package` subcommand main.swift runs without a GLib loop.
protocol PackageCommand: ParsableCommand {
    /// Does the work; the outcome's status is the exit code.
    func perform() throws(PackageError) -> String?
}

extension PackageCommand {
    /// Runs ``perform()`` and maps its error to an exit code: 4 for missing or too many `--trust`
    /// keys (a usage error), 6 for a refusal, 2 otherwise.
    func execute() -> Int32 {
        do {
            if let line = try perform() { OutputLines.standardOutput.write(line) }
            return ExitStatus.success.rawValue
        } catch {
            OutputLines.standardError.write("hybrid-run: error: \(error)")
            if case .trustConfiguration = error { return ExitStatus.usage.rawValue }
            return error.isRefusal ? PackageExit.refused : ExitStatus.failure.rawValue
        }
    }
}

enum PackageExit {
    /// The package or index was refused (documented in the help).
    static let refused: Int32 = 6
}

/// The flags every store command shares.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The data directory; packages live in DIR/packages. Example: --data-dir /var/lib/app", valueName: "dir"))
    var dataDir: String

    @Option(name: .long, help: ArgumentHelp("A trusted public key (.pub), at most two. Example: --trust release.pub", valueName: "file"))
    var trust: [String] = []

    @Flag(name: .long, help: "Print each package event as one line on stdout.")
    var printEvents = false

    func store() throws(PackageError) -> PackageStore {
        let keys = try TrustedKeys(files: trust.map { URL(fileURLWithPath: $0) })
        let events = printEvents
        return PackageStore(directory: URL(fileURLWithPath: dataDir).appendingPathComponent("packages"), trust: keys,
                            observer: { event in if events { OutputLines.standardOutput.write(event.description) } })
    }

    /// A store for commands that need no trust (list, rollback, remove).
    func untrustedStore() throws(PackageError) -> PackageStore {
        if !trust.isEmpty { return try store() }
        // Reading and switching between versions already verified needs no key.
        let placeholder = try TrustedKeys([PackageSigningKey().publicKey])
        let events = printEvents
        return PackageStore(directory: URL(fileURLWithPath: dataDir).appendingPathComponent("packages"), trust: placeholder,
                            observer: { event in if events { OutputLines.standardOutput.write(event.description) } })
    }
}

/// Progress on stderr when it is a terminal (a long install should not look hung).
enum TerminalProgress {
    static func reporter() -> ((Int64, Int64) -> Void)? {
        guard isatty(2) != 0 else { return nil }
        var last = -1
        return { done, total in
            let percent = total > 0 ? Int(done * 100 / total) : 100
            guard percent != last else { return }
            last = percent
            OutputLines.standardError.writeRaw("\rinstalling \(percent)%" + (percent == 100 ? "\n" : ""))
        }
    }
}

/// Runs async library work from these loop-less commands: the main thread waits for the task.
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws(PackageError) -> T) throws(PackageError) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, PackageError>?
    Task.detached {
        do throws(PackageError) { result = .success(try await work()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try result!.get()
}

func describe(_ package: InstalledPackage) -> String {
    var line = "\(package.appID) \(package.version) sequence=\(package.sequence) root=\(package.root.path)"
    if let previous = package.previousSequence { line += " previous=\(previous)" }
    return line
}

/// Writes bytes to `path` via a temporary file and a rename: never a half-written output. The
/// parent directory is created if missing; the file is created with `mode` (a private key is
/// never readable by others, not even for a moment before a chmod).
func writeOutput(_ data: Data, to path: String, mode: Int = 0o644) throws(PackageError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        if FileManager.default.fileExists(atPath: path) { _ = try FileManager.default.replaceItemAt(url, withItemAt: temporary) }
        else { try FileManager.default.moveItem(at: temporary, to: url) }
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw .io(path: path, reason: "cannot be written: \(error.localizedDescription)")
    }
}

/// `--expires 2027-01-31` or a full ISO 8601 instant.
func parseExpiry(_ text: String?) throws(PackageError) -> Date? {
    guard let text else { return nil }
    return try PackageExpiry.parse(text)
}
