import HybridShell

/// The CLI's standard output and error, written a whole line at a time.
typealias OutputLines = LineWriter

extension LineWriter {
    static let standardOutput = LineWriter(descriptor: 1)
    static let standardError = LineWriter(descriptor: 2)
}
