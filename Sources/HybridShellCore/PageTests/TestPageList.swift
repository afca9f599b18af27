import Foundation

/// Turns `hybrid-run test` arguments into the pages to run: files, directories (every `.html`
/// below them, outside hidden folders and `node_modules`), shell-style globs and URLs; sorted by
/// name, without duplicates, so every run and every shard sees the same order.
package struct TestPageList: Sendable {
    public let workingDirectory: String
    /// What exists at an absolute path; injected so tests need no disk.
    public var fileKind: @Sendable (String) -> PageLocation.FileKind?
    /// Every regular file below an absolute directory, as paths relative to it.
    public var filesBelow: @Sendable (String) -> [String]

    public init(workingDirectory: String,
                fileKind: @escaping @Sendable (String) -> PageLocation.FileKind? = PageLocation.fileKindOnDisk,
                filesBelow: @escaping @Sendable (String) -> [String] = TestPageList.filesOnDisk) {
        self.workingDirectory = workingDirectory
        self.fileKind = fileKind
        self.filesBelow = filesBelow
    }

    /// The pages, and a warning for each glob that matched nothing.
    public func expand(_ inputs: [String]) throws(ShellError) -> (pages: [TestPage], warnings: [String]) {
        var pages: [String: TestPage] = [:]
        var warnings: [String] = []
        for input in inputs {
            guard !input.isEmpty else { throw .invalidArgument("a page argument is empty") }
            let found = try expand(input)
            if found.isEmpty { warnings.append("no test pages match \(JSONValue.quoted(input))") }
            for page in found { pages[page.url] = page }
        }
        let sorted = pages.values.sorted { ($0.name, $0.url) < ($1.name, $1.url) }
        return (sorted, warnings)
    }

    private func expand(_ input: String) throws(ShellError) -> [TestPage] {
        if input.contains("://") || input.hasPrefix("about:") || input.hasPrefix("data:") {
            let url = try PageLocation.resolve(input, currentDirectory: workingDirectory, fileKind: fileKind)
            return [TestPage(name: input, url: url)]
        }
        let absolute = input.hasPrefix("/") ? input : workingDirectory + "/" + input
        if GlobPattern.hasWildcards(input), fileKind(absolute) == nil {
            let pattern = GlobPattern(standardized(absolute))
            let base = pattern.base
            guard fileKind(base) == .directory else { return [] }
            // Dependencies are never test pages unless the pattern names them.
            let skipDependencies = !input.contains("node_modules")
            return filesBelow(base)
                .filter { !skipDependencies || !$0.split(separator: "/").contains("node_modules") }
                .map { base == "/" ? "/" + $0 : base + "/" + $0 }
                .filter(pattern.matches)
                .map(page(atAbsolutePath:))
        }
        switch fileKind(absolute) {
        case .file?:
            return [page(atAbsolutePath: standardized(absolute))]
        case .directory?:
            let directory = standardized(absolute)
            return filesBelow(directory)
                .filter { $0.hasSuffix(".html") || $0.hasSuffix(".htm") }
                .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "node_modules" } }
                .map { page(atAbsolutePath: directory + "/" + $0) }
        case nil:
            throw .fileNotFound(input)
        }
    }

    private func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private func page(atAbsolutePath path: String) -> TestPage {
        let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        return TestPage(name: name, url: URL(fileURLWithPath: path).absoluteString)
    }

    public static let filesOnDisk: @Sendable (String) -> [String] = { directory in
        guard let enumerator = FileManager.default.enumerator(at: URL(fileURLWithPath: directory),
                                                              includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let prefix = URL(fileURLWithPath: directory).standardizedFileURL.path + "/"
        var files: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            files.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : url.lastPathComponent)
        }
        return files
    }
}
