import Logging
import HybridShellCore
import HybridShellWebKit

/// The `print` module: `print.page {printer?, file?, silent?}` prints the calling page — to a PDF
/// file inside `module_settings.print_dirs`, silently to a printer of `module_settings.printers`,
/// or after GTK's print dialog (not in a kiosk) — and answers what went where:
/// `{printer, file?, url}`. The page's own `window.print()` stays refused. In page tests nothing is
/// printed: printers and files are only named (`headless: true`, nothing reaches CUPS or the
/// disk); without a window a dialog is `CANCELLED`; a windowless `--url` run writes files for real.
public enum PrintModule {
    public static let name = "print"

    @EngineActor
    static func module(host: ModuleHost, simulatesPrinters: Bool, hasWindow: Bool, policy: PrintPolicy, logger: Logger = Logger(label: "hybridshell.print")) -> NativeModule {
        NativeModule(name: name) { [weak host] handlers in
            handlers.registerRaw("print.page", inOrder: { data, call in
                let target = try policy.decide(data)
                let page = host?.page(of: call)
                var answer: [String: JSONValue] = ["url": page.map { .string($0.view.url ?? $0.url) } ?? .null]
                switch (target, page) {
                case (.printer(let name), _) where simulatesPrinters:
                    answer["printer"] = .string(name)
                    answer["headless"] = true
                case (.file(let path), nil) where simulatesPrinters:
                    // A page test's view is on no page stack: the file is named, not written.
                    answer["printer"] = .string("Print to File")
                    answer["file"] = .string(path)
                    answer["headless"] = true
                case (.dialog, _) where !hasWindow:
                    throw BridgeError(.cancelled, "print.page: no print dialog without a window", details: ["handler": "print.page"])
                case (_, nil):
                    throw BridgeError(.handlerError, "print.page: the calling page is not open here", details: ["handler": "print.page", "reason": "noPage"])
                case (_, let page?):
                    let outcome: PrintOutcome?
                    do {
                        outcome = try await page.view.printPage(to: target)
                    } catch {
                        throw BridgeError(.handlerError, "print.page: \(error)", details: ["handler": "print.page", "reason": "printFailed"])
                    }
                    guard let outcome else { throw BridgeError(.cancelled, "print.page: the print dialog was cancelled", details: ["handler": "print.page"]) }
                    answer["printer"] = .string(outcome.printer)
                    if let file = outcome.file { answer["file"] = .string(file) }
                }
                logger.info("printed \(answer["url"]?.stringValue ?? "a page") to \(answer["file"]?.stringValue ?? answer["printer"]?.stringValue ?? "")",
                            metadata: ["origin": .string(call.origin)])
                return RawJSON(unchecked: JSONValue.object(answer).jsonText)
            })
        }
    }
}
