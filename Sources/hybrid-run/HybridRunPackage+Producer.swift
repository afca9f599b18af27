import ArgumentParser
import Foundation
import HybridShell

struct PackageKeygen: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "keygen", abstract: "Make an Ed25519 key pair: NAME.key (private, mode 0600) and NAME.pub.")

    @Option(name: .long, help: ArgumentHelp("The files' name without extension. Example: --output release", valueName: "name"))
    var output: String

    func perform() throws(PackageError) -> String? {
        let key = PackageSigningKey()
        for path in [output + ".key", output + ".pub"] where FileManager.default.fileExists(atPath: path) {
            throw .io(path: path, reason: "already exists (keygen never overwrites a key)")
        }
        try writeOutput(Data(key.fileText.utf8), to: output + ".key", mode: 0o600)
        try writeOutput(Data(key.publicKey.fileText.utf8), to: output + ".pub")
        return "key \(key.publicKey.keyID): \(output).key (keep it secret), \(output).pub (give it to installers)"
    }
}

struct PackagePack: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "pack", abstract: "Pack a directory into a signed package (deterministic: same input, same bytes).")

    @Argument(help: ArgumentHelp("The app's files. Example: site/", valueName: "dir"))
    var directory: String
    @Option(name: .long, help: ArgumentHelp("Letters, digits, '.', '-', '_'. Example: --app-id shop", valueName: "id"))
    var appId: String
    @Option(name: .long, help: ArgumentHelp("The version people see. Example: --app-version 1.2.0", valueName: "version"))
    var appVersion: String
    @Option(name: .long, help: ArgumentHelp("An integer larger than every earlier package's. Example: --sequence 7", valueName: "n"))
    var sequence: Int64
    @Option(name: .long, help: ArgumentHelp("The private key. Example: --key release.key", valueName: "file"))
    var key: String
    @Option(name: .long, help: ArgumentHelp("The package to write. Example: --output shop-7.zip", valueName: "file"))
    var output: String
    @Option(name: .long, help: ArgumentHelp("An older package: make an incremental one against it. Example: --base shop-6.zip", valueName: "file"))
    var base: String?
    @Option(name: .long, help: ArgumentHelp("Refuse the package after this date. Example: --expires 2027-01-31", valueName: "date"))
    var expires: String?
    @Option(name: .long, help: ArgumentHelp("The entry page. Example: --entry index.html", valueName: "path"))
    var entry = "index.html"
    @Option(name: .long, help: ArgumentHelp("Update order, higher first. Example: --priority 10", valueName: "n"))
    var priority = 0
    @Flag(name: .long, help: "Mark the app disabled (kept installed, not offered).")
    var disabled = false
    @Option(name: .long, help: ArgumentHelp("A JSON object: online URL or path → file in the package. Example: --path-map map.json", valueName: "file"))
    var pathMap: String?
    @Flag(name: .long, help: "Also pack files and folders whose name starts with a dot (.env, .git/), left out by default.")
    var includeHidden = false

    func perform() throws(PackageError) -> String? {
        var map = [String: String]()
        if let pathMap {
            guard let data = FileManager.default.contents(atPath: pathMap),
                  let decoded = try? JSONDecoder().decode([String: String].self, from: data) else {
                throw .invalidManifest("--path-map \(pathMap) is not a JSON object of strings")
            }
            map = decoded
        }
        var options = PackageBuilder.Options(appID: appId, version: appVersion, sequence: sequence, expires: try parseExpiry(expires),
                                             entry: entry, enable: !disabled, priority: priority, pathMap: map)
        options.includeHidden = includeHidden
        let hidden = includeHidden ? [] : PackageBuilder.hiddenEntries(URL(fileURLWithPath: directory))
        if !hidden.isEmpty {
            OutputLines.standardError.write("note: left out \(hidden.count) hidden \(hidden.count == 1 ? "entry" : "entries") (\(hidden.joined(separator: ", "))); --include-hidden packs them")
        }
        let builder = PackageBuilder(key: try PackageSigningKey(contentsOf: URL(fileURLWithPath: key)))
        let (data, manifest) = try builder.pack(directory: URL(fileURLWithPath: directory), options: options,
                                                base: base.map { URL(fileURLWithPath: $0) })
        try writeOutput(data, to: output)
        let kind = manifest.base.map { "incremental from sequence \($0.sequence)" } ?? "full"
        return "\(output): \(manifest.appID) \(manifest.version) sequence=\(manifest.sequence) \(kind), \(manifest.files.count) files, \(data.count) bytes"
    }
}

struct PackageIndexCommand: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "index", abstract: "Write a signed update index (index.json + index.json.sig) for packages served beside it.")

    @Argument(help: ArgumentHelp("Package files (full and incremental). Example: out/*.zip", valueName: "file"))
    var packages: [String]
    @Option(name: .long, help: ArgumentHelp("The private key. Example: --key release.key", valueName: "file"))
    var key: String
    @Option(name: .long, help: ArgumentHelp("Where to write the index (serve the packages from there too). Example: --output-dir out", valueName: "dir"))
    var outputDir: String
    @Option(name: .long, help: ArgumentHelp("Refuse the index after this date. Example: --expires 2027-01-31", valueName: "date"))
    var expires: String?

    func perform() throws(PackageError) -> String? {
        guard !packages.isEmpty else { throw .io(path: outputDir, reason: "no packages given") }
        let signing = try PackageSigningKey(contentsOf: URL(fileURLWithPath: key))
        let (index, signature) = try PackageIndex.make(packages: packages.map { URL(fileURLWithPath: $0) }, expires: try parseExpiry(expires), key: signing)
        try writeOutput(index, to: outputDir + "/" + PackageIndex.fileName)
        try writeOutput(signature, to: outputDir + "/" + PackageIndex.signatureName)
        return "\(outputDir)/\(PackageIndex.fileName): \(packages.count) packages"
    }
}

struct PackageVerify: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "verify", abstract: "Check a package's signature, manifest and entries without installing it.")

    @Argument(help: ArgumentHelp("The package. Example: shop-7.zip", valueName: "file"))
    var file: String
    @Option(name: .long, help: ArgumentHelp("A trusted public key, at most two. Example: --trust release.pub", valueName: "file"))
    var trust: [String] = []

    func perform() throws(PackageError) -> String? {
        let keys = try TrustedKeys(files: trust.map { URL(fileURLWithPath: $0) })
        let package = try VerifiedPackage.verify(file: URL(fileURLWithPath: file), trust: keys)
        let manifest = package.manifest
        return "OK \(manifest.appID) \(manifest.version) sequence=\(manifest.sequence) key=\(package.keyID)"
    }
}

struct PackageInspect: PackageCommand {
    static let configuration = CommandConfiguration(commandName: "inspect", abstract: "Print a package's manifest (NOT verified: use verify for that).")

    @Argument(help: ArgumentHelp("The package. Example: shop-7.zip", valueName: "file"))
    var file: String

    func perform() throws(PackageError) -> String? {
        let (manifest, keyID) = try VerifiedPackage.inspect(file: URL(fileURLWithPath: file))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let json = (try? encoder.encode(manifest)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return "signed by key \(keyID) (not verified)\ntree sha256 \(manifest.treeHash)\n\(json)"
    }
}
