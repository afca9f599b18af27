import ArgumentParser
import Foundation
import HybridShell

/// The text main.swift prints for what ArgumentParser (or a ``CheckedCommand``) rejected or was
/// asked for: help, version and completion scripts on stdout; a usage error as the house's
/// `hybrid-run: error: …` line and one `Usage:` line naming the right subcommand's help.
enum UsageMessage {
    /// Whether the arguments ask for the root's help, which is the URL form's help (its flags are
    /// what most readers look for) followed by the list of subcommands.
    static func asksForRootHelp(_ arguments: [String]) -> Bool {
        [["--help"], ["-h"], ["-help"], ["help"]].contains(arguments)
    }

    /// The error for `help` followed by a name that is no command (`hybrid-run help nope`), which
    /// ArgumentParser would answer with the root's help and exit 0; nil when every name is a
    /// command (`help test`, `help package pack`).
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var node: ParsableCommand.Type = HybridRunRoot.self
        for word in arguments.dropFirst() where !word.hasPrefix("-") && word != "help" {
            let children = node.configuration.subcommands
            guard let child = children.first(where: { $0.configuration.commandName == word || $0.configuration.aliases.contains(word) }) else {
                let path = commandPath(of: node)
                let names = children.compactMap { $0.configuration.commandName }.joined(separator: ", ")
                return "no help for \(JSONValue.quoted(word)): \(path) has no command \(word) (commands: \(names))"
            }
            node = child
        }
        return nil
    }

    /// The run command's help with the root's SUBCOMMANDS section appended.
    static func rootHelp(columns: Int? = nil) -> String {
        let run = HybridRunRoot.helpMessage(for: HybridRun.self, columns: columns)
        let root = HybridRunRoot.helpMessage(columns: columns)
        guard let range = root.range(of: "SUBCOMMANDS:") else { return run }
        return run.trimmingSuffixNewlines() + "\n\n" + String(root[range.lowerBound...]).trimmingSuffixNewlines()
    }

    /// The two stderr lines of a usage error: the reason, then the usage of the command it concerns.
    /// `command` is the parsed command when the error came from its ``CheckedCommand/checkFlags()``.
    static func errorLines(for error: any Error, command: ParsableCommand.Type?, arguments: [String] = []) -> [String] {
        var reason = HybridRunRoot.message(for: error)
        let usage: String, name: String
        if let command {
            usage = HybridRunRoot.usageString(for: command)
            name = commandPath(of: command)
        } else {
            // ArgumentParser's own message knows which subcommand failed: "Usage: …" and
            // "See 'hybrid-run test --help' for more information."
            let full = HybridRunRoot.fullMessage(for: error).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            usage = full.first { $0.hasPrefix("Usage: ") }.map { String($0.dropFirst("Usage: ".count)) }
                ?? HybridRunRoot.usageString(for: HybridRun.self)
            let see = full.first { $0.hasPrefix("See '") && $0.contains(" --help'") }
            name = see.map { String($0.dropFirst("See '".count).prefix { $0 != "'" }.dropLast(" --help".count)) } ?? "hybrid-run"
        }
        // ArgumentParser reports a missing argument before an unknown option; the option is the
        // likelier mistake (`package pack --bogus` said "Missing expected argument '<dir>'").
        if reason.hasPrefix("Missing expected argument"), let type = command ?? commandType(atPath: name),
           let unknown = unknownOption(in: arguments, for: type) {
            reason = "Unknown option '\(unknown)'"
        }
        // `hybrid-run --help` is the run command's help, so the URL form points there.
        let hint = name == "hybrid-run run" ? "hybrid-run" : name
        // One line: a custom usage (the run command's) has a second line listing the subcommands.
        let firstLine = usage.split(separator: "\n").first.map(String.init) ?? usage
        return ["hybrid-run: error: \(reason)", "Usage: \(firstLine) — see \(hint) --help"]
    }

    /// The first option in `arguments` that `command`'s help does not list, if any.
    static func unknownOption(in arguments: [String], for command: ParsableCommand.Type) -> String? {
        let help = HybridRunRoot.helpMessage(for: command, columns: 10_000)
        let known = Set(help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
            .filter { $0.hasPrefix("-") }.map(String.init) + ["--help", "-h", "--version"])
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.count > 1 && argument.hasPrefix("-") {
            let name = String(argument.prefix { $0 != "=" })
            if Double(name) == nil, !known.contains(name) { return name }
        }
        return nil
    }

    /// The command at "hybrid-run package pack" (as ``commandPath(of:)`` names it), if any.
    static func commandType(atPath path: String) -> ParsableCommand.Type? {
        var node: ParsableCommand.Type = HybridRunRoot.self
        for word in path.split(separator: " ").dropFirst() {
            guard let child = node.configuration.subcommands.first(where: { $0.configuration.commandName == String(word) }) else { return nil }
            node = child
        }
        return node
    }

    /// "hybrid-run test", "hybrid-run package pack", … for a command in the root's tree.
    static func commandPath(of command: ParsableCommand.Type) -> String {
        func path(_ node: ParsableCommand.Type, _ prefix: [String]) -> [String]? {
            let here = prefix + [node.configuration.commandName ?? ""]
            if node == command { return here }
            return node.configuration.subcommands.lazy.compactMap { path($0, here) }.first
        }
        return (path(HybridRunRoot.self, []) ?? ["hybrid-run"]).joined(separator: " ")
    }
}

private extension String {
    func trimmingSuffixNewlines() -> String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
