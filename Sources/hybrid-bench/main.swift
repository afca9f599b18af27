import Foundation
import HybridShell

// hybrid-bench SCENARIO ARGS… — the Swift counterparts of the C baselines in bench/c, each printing
// one JSON line like its C twin so bench/run.py can compare them. See bench/README.md.
let arguments = Array(CommandLine.arguments.dropFirst())
let errors = LineWriter(descriptor: 2)

guard let scenario = arguments.first, let benchmark = Benchmarks.named(scenario) else {
    errors.write("usage: hybrid-bench \(Benchmarks.usage)")
    exit(4)
}
let status = MainLoop.run {
    do {
        let line = try await benchmark(Array(arguments.dropFirst()))
        LineWriter(descriptor: 1).write(line)
        return 0
    } catch {
        errors.write("hybrid-bench: error: \(error)")
        return 2
    }
}
exit(status)
