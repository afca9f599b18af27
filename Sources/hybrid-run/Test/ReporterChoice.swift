import HybridShell
/// One `--reporter NAME[:PATH]` flag.
struct ReporterChoice: Sendable, Equatable {
    enum Kind: String, Sendable, Equatable, CaseIterable {
        case list, dot, tap, junit, json, html
    }

    let kind: Kind
    let destination: ReportOutput.Destination

    init(kind: Kind, destination: ReportOutput.Destination) {
        self.kind = kind
        self.destination = destination
    }

    /// `tap` (stdout), `junit:reports/junit.xml`, `json:-` (stdout). The HTML report is a page
    /// that stays a file: `html:DIR` writes `DIR/index.html`, `html` alone
    /// `<outputDirectory>/html/index.html` (default `test-results`).
    init(parsing text: String, outputDirectory: String?) throws(ShellError) {
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        guard let kind = Kind(rawValue: name) else {
            throw .invalidArgument("unknown reporter \(JSONValue.quoted(name)) (use one of: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")); add :PATH to write a file)")
        }
        self.kind = kind
        if let colon = text.firstIndex(of: ":") {
            let path = String(text[text.index(after: colon)...])
            guard !path.isEmpty else { throw .invalidArgument("--reporter \(text): the path after ':' is empty") }
            if kind == .html {
                guard path != "-" else { throw .invalidArgument("--reporter html writes a directory, not stdout; give html:DIR") }
                destination = .file(path + "/index.html")
            } else {
                destination = path == "-" ? .standardOutput : .file(path)
            }
        } else if kind == .html {
            destination = .file((outputDirectory ?? "test-results") + "/html/index.html")
        } else {
            destination = .standardOutput
        }
    }

    /// The file this reporter writes, nil for stdout.
    var path: String? {
        if case .file(let path) = destination { path } else { nil }
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
        case .html: return HTMLReporter(output: output)
        }
    }
}
