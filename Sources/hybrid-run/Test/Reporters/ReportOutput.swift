import HybridShell
import Foundation

/// Where a reporter writes: standard output, line by line as it goes, or a file, written whole
/// when the run ends (so a report file is never half-written).
/// Used on the engine actor only, as the reporters are: its buffer needs no lock.
@EngineActor
final class ReportOutput {
    enum Destination: Sendable, Equatable {
        case standardOutput
        case file(String)
    }

    let destination: Destination
    private let lines: OutputLines
    private var buffer: [String] = []
    /// Text written with `write(fragment:)` that no line has ended yet (file destinations only).
    private var partialLine = ""

    init(_ destination: Destination, standardOutput: OutputLines = .standardOutput) {
        self.destination = destination
        self.lines = standardOutput
    }

    /// Writes one line (without its newline). After `write(fragment:)`, ends that line.
    func write(_ line: String) {
        switch destination {
        case .standardOutput: lines.write(line)
        case .file:
            buffer.append(partialLine + line)
            partialLine = ""
        }
    }

    /// Writes text without ending the line, at once on standard output (the dot reporter's
    /// progress characters); the next `write(_:)` ends the line.
    func write(fragment: String) {
        switch destination {
        case .standardOutput: ReportOutput.writeAll(Array(fragment.utf8), to: lines.descriptor)
        case .file: partialLine += fragment
        }
    }

    /// Writes what a file destination collected, creating its directory; nothing for stdout.
    func finish() throws(ShellError) {
        guard case .file(let path) = destination else { return }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let all = partialLine.isEmpty ? buffer : buffer + [partialLine]
            try Data((all.map { $0 + "\n" }.joined()).utf8).write(to: url, options: .atomic)
        } catch {
            throw .invalidArgument("cannot write the report \(path): \(error.localizedDescription)")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe, as in `OutputLines.write`
                }
                offset += written
            }
        }
    }
}
