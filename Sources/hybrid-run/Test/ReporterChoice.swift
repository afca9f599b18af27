import HybridShell
/// One `--reporter NAME[:PATH]` flag.
struct ReporterChoice: Sendable, Equatable {
    enum Kind: String, Sendable, Equatable, CaseIterable {
        case list, dot, tap, junit, json

        /// The file a reporter writes under `--output DIR` when no path is given; list and dot are
        /// for people and stay on stdout.
        var defaultFileName: String? {
            switch self {
            case .list, .dot: nil
            case .tap: "results.tap"
            case .junit: "junit.xml"
            case .json: "results.json"
            }
        }
    }

    let kind: Kind
    let destination: ReportOutput.Destination

    init(kind: Kind, destination: ReportOutput.Destination) {
        self.kind = kind
        self.destination = destination
    }

    /// `tap`, `junit:reports/junit.xml`, `json:-` (stdout).
    init(parsing text: String, outputDirectory: String?) throws(ShellError) {
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        guard let kind = Kind(rawValue: name) else {
            throw .invalidArgument("unknown reporter \(JSONValue.quoted(name)) (use one of: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")); add :PATH to write a file)")
        }
        self.kind = kind
        if let colon = text.firstIndex(of: ":") {
            let path = String(text[text.index(after: colon)...])
            guard !path.isEmpty else { throw .invalidArgument("--reporter \(text): the path after ':' is empty") }
            destination = path == "-" ? .standardOutput : .file(path)
        } else if let outputDirectory, let file = kind.defaultFileName {
            destination = .file(outputDirectory + "/" + file)
        } else {
            destination = .standardOutput
        }
    }

    /// At most one reporter may write to stdout, or their lines would interleave.
    static func validate(_ choices: [ReporterChoice]) throws(ShellError) {
        let onStandardOutput = choices.filter { $0.destination == .standardOutput }
        if onStandardOutput.count > 1 {
            throw .invalidArgument("only one reporter can write to stdout (\(onStandardOutput.map(\.kind.rawValue).joined(separator: ", "))); give the others a file, e.g. --reporter junit:junit.xml")
        }
        var files = Set<String>()
        for case .file(let path) in choices.map(\.destination) where !files.insert(path).inserted {
            throw .invalidArgument("two reporters write to \(path)")
        }
    }

    @EngineActor
    func makeReporter(useColor: Bool, passWithNoTests: Bool) -> TestReporter {
        let output = ReportOutput(destination)
        switch kind {
        case .list: return ListReporter(output: output, useColor: useColor)
        case .dot: return DotReporter(output: output, useColor: useColor)
        case .tap: return TAPReporter(output: output, passWithNoTests: passWithNoTests)
        case .junit: return JUnitReporter(output: output)
        case .json: return JSONReporter(output: output)
        }
    }
}
