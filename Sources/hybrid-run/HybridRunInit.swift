import ArgumentParser
import Foundation
import HybridShell

/// `hybrid-run init DIR`: a new app that runs (`dev`), tests (`test`) and packages (`bundle`)
/// as written. ``AppScaffold`` (in the library) makes the files.
struct HybridRunInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a new app in a folder: app.toml, web/ using the bridge and a module, a page test, an icon, a signing key pair.",
        usage: "hybrid-run init DIR [--id ID] [--name NAME]",
        discussion: """
            DIR must not exist or be empty. The private key keys/app.key (mode 0600) is git-ignored \
            and never bundled; app.toml trusts keys/app.pub. See docs/apps.md.

            Examples:
              hybrid-run init shop --id org.example.Shop --name Shop
              hybrid-run dev shop

            Exit codes: 0 written · 2 a file could not be written · 4 usage error (bad id or name, DIR not empty).
            """
    )

    @Argument(help: ArgumentHelp("The new app's folder (created; must be empty if it exists). Example: shop", valueName: "dir"))
    var directory: String

    @Option(name: .long, help: ArgumentHelp("The app id, reverse-DNS (default: org.example.<folder name>). Example: --id org.example.Shop", valueName: "id"))
    var id: String?

    @Option(name: .long, help: ArgumentHelp("The name people see (default: the folder's name). Example: --name 'Corner Shop'", valueName: "name"))
    var name: String?

    func execute(output: OutputLines = .standardOutput) -> Int32 {
        let scaffold: AppScaffold
        do {
            scaffold = try AppScaffold(directory: directory, id: id, name: name)
            try AppScaffold.checkTarget(directory)
        } catch {
            OutputLines.standardError.write("hybrid-run: error: \(error)")
            return ExitStatus.usage.rawValue
        }
        do {
            let keyID = try scaffold.write(to: directory)
            output.write("""
                wrote \(scaffold.name) (\(scaffold.id)) in \(directory); signing key \(keyID): keys/app.key stays here, keys/app.pub is trusted
                next: hybrid-run dev \(directory)
                      hybrid-run test \(directory)/tests/ --config \(directory)/app.toml
                      hybrid-run bundle \(directory) --output dist
                """)
            return ExitStatus.success.rawValue
        } catch {
            OutputLines.standardError.write("hybrid-run: error: \(error)")
            return ExitStatus.failure.rawValue
        }
    }
}
