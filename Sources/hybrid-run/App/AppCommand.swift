import Foundation
import HybridShell

/// `hybrid-run app`: starts a ``DesktopApp``, or hands the URLs to the running instance; prints the
/// page's console and runs until the window is closed, SIGINT/SIGTERM or `--exit-after`.
@EngineActor
final class AppCommand {
    private let options: DesktopAppOptions
    private let uris: [String]
    private let exitAfter: ExitCondition?
    private let output: OutputLines
    private let errors: OutputLines
    private let started = ContinuousClock.now
    private let outcome = Handoff<RunOutcome>()
    private var timers: [LoopTimer] = []

    init(options: DesktopAppOptions, uris: [String], exitAfter: ExitCondition?, output: OutputLines = .standardOutput,
         errors: OutputLines = .standardError) {
        self.options = options
        self.uris = uris
        self.exitAfter = exitAfter
        self.output = output
        self.errors = errors
    }

    func run() async -> RunOutcome {
        ShutdownDeadline.onTerminationSignal { [weak self] _ in self?.settle(.success) }
        let app: DesktopApp
        do {
            app = try DesktopApp(options: options)
            // With the console on stdout: the app's log (the journal, for an installed app).
            app.onPackageEvent = { [output] event in output.write("hybrid-run: \(event)") }
            guard try await app.start(opening: uris) else {
                let what = uris.isEmpty ? "raised the window of" : "handed \(uris.joined(separator: " ")) to"
                errors.write("hybrid-run: \(what) the running \(options.id)")
                return .success
            }
        } catch let error as ShellError {
            if case .noDisplay(let problem) = error { return .noDisplay(problem) }
            return RunOutcome(.failure, "\(error)")
        } catch let error as PackageRun.Failure {
            return RunOutcome(.failure, PackageRunOptions.message(for: error))
        } catch {
            return RunOutcome(.failure, "\(error)")
        }
        app.onOpen = { [errors] urls in errors.write("hybrid-run: opened \(urls.joined(separator: " "))") }
        app.page?.view.observe { [weak self] event in self?.handle(event) }
        if case .duration(let duration)? = exitAfter {
            timers.append(LoopTimer(after: duration) { [weak self] in self?.settle(.success) })
        }
        let result = (try? await outcome.value()) ?? .success
        await app.stop()
        return result
    }

    private func handle(_ event: PageEvent) {
        switch event {
        case .console(let message):
            output.write(message.miniBrowserLine)
        case .loadFailed(let error) where error.kind != .cancelled:
            settle(RunOutcome(.failure, "failed to load \(error.url): \(error.message)"))
        case .loadFinished(let url, true):
            if exitAfter == .load {
                errors.write("hybrid-run: loaded \(url) in \((ContinuousClock.now - started).millisecondsText)")
                settle(.success)
            }
        case .closeRequested:
            settle(.success)
        default:
            break
        }
    }

    private func settle(_ result: RunOutcome) {
        guard !outcome.isSettled else { return }
        ShutdownDeadline.arm(status: result.status, what: "the app ended")
        outcome.fulfill(result)
    }
}
