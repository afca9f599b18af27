/// ArgumentParser's bash completion offers only subcommand names after `hybrid-run`, but `run` is
/// the default subcommand: `hybrid-run --ur<TAB>` should complete `--url`. This adds the run
/// command's completions there (and keeps the subcommand names for the first word). If a future
/// ArgumentParser writes the script differently, the script is left as it is.
enum CompletionScript {
    static func withDefaultSubcommand(_ script: String) -> String {
        let names = HybridRunRoot.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        let offer = "COMPREPLY+=($(compgen -W '\(names.joined(separator: " "))' -- \"${cur}\"))"
        let original = "    *)\n        # Offer subcommand completions\n        \(offer)\n"
        guard script.contains("\n_hybrid-run() {"), let range = script.range(of: original) else { return script }
        let replacement = """
                *)
                    # run is the default subcommand: offer its flags and arguments too.
                    COMPREPLY=()
                    unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                    "_hybrid-run_run"
                    [[ "${COMP_CWORD}" -eq 1 ]] && \(offer)

            """
        return script.replacingCharacters(in: range, with: replacement)
    }
}
