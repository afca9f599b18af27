import ArgumentParser
import Logging

/// The library's log records as stderr lines (`hybrid-run: warning: [hybridshell.schemes] …`):
/// the one log handler of the process, bootstrapped once the flags are read.
struct LogLines: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    private let errors = OutputLines.standardError

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        let all = metadata.merging(extra ?? [:]) { _, new in new }
        let fields = all.keys.sorted().map { "\($0)=\(all[$0]!)" }.joined(separator: " ")
        errors.write("hybrid-run: \(level): [\(label)] \(message)" + (fields.isEmpty ? "" : " " + fields))
    }

    /// Installs the handler for the whole process: `quiet` keeps only errors.
    static func bootstrap(level: Logger.Level, quiet: Bool) {
        let effective = quiet ? max(level, .error) : level
        LoggingSystem.bootstrap { LogLines(label: $0, level: effective) }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
