import HybridShell
extension PageEvent {
    /// The event as one JSON object, as `hybrid-run --print-events` writes it: an `event` name plus
    /// the event's fields.
    var jsonObject: [String: JSONValue] {
        switch self {
        case .loadStarted(let url): ["event": "loadStarted", "url": .string(url)]
        case .loadRedirected(let url): ["event": "loadRedirected", "url": .string(url)]
        case .loadCommitted(let url): ["event": "loadCommitted", "url": .string(url)]
        case .loadFinished(let url, let succeeded): ["event": "loadFinished", "url": .string(url), "ok": .bool(succeeded)]
        case .loadFailed(let error):
            ["event": "loadFailed", "url": .string(error.url), "kind": .string(error.kind.rawValue),
             "message": .string(error.message), "domain": .string(error.domain), "code": .number(Double(error.code))]
        case .titleChanged(let title): ["event": "titleChanged", "title": .string(title)]
        case .progressChanged(let progress): ["event": "progressChanged", "progress": .number(progress)]
        case .webProcessTerminated(let reason): ["event": "webProcessTerminated", "reason": .string(reason.rawValue)]
        case .responsivenessChanged(let responsive): ["event": "responsivenessChanged", "responsive": .bool(responsive)]
        case .console(let message):
            ["event": "console", "level": .string(message.level.rawValue), "source": .string(message.source.rawValue),
             "text": .string(message.text), "url": .string(message.url),
             "line": .number(Double(message.line)), "column": .number(Double(message.column)), "frame": .string(message.frameURL)]
        case .dialog(let dialog, let answer):
            ["event": "dialog", "kind": .string(dialog.kind.rawValue), "message": .string(dialog.message),
             "answer": answer.jsonValue]
        case .navigationCancelled(let url): ["event": "navigationCancelled", "url": .string(url)]
        case .newWindowRequested(let url, let decision): ["event": "newWindowRequested", "url": .string(url), "decision": .string(decision.rawValue)]
        case .closeRequested: ["event": "closeRequested"]
        case .contextMenuSuppressed: ["event": "contextMenuSuppressed"]
        case .inputBlocked(let input): ["event": "inputBlocked", "input": .string(input)]
        case .permissionDecided(let request, let granted):
            ["event": "permissionDecided", "kind": .string(request.kind.rawValue), "origin": .string(request.origin), "granted": .bool(granted)]
        case .nativeDialogRefused(let request):
            switch request {
            case .fileChooser(let multiple): ["event": "nativeDialogRefused", "dialog": .string(request.name), "multiple": .bool(multiple)]
            case .authentication(let host): ["event": "nativeDialogRefused", "dialog": .string(request.name), "host": .string(host)]
            case .print, .colorChooser: ["event": "nativeDialogRefused", "dialog": .string(request.name)]
            }
        }
    }
}

extension DialogAnswer {
    var jsonValue: JSONValue {
        switch self {
        case .dismiss: "dismiss"
        case .confirm(let confirmed): .bool(confirmed)
        case .prompt(let text): text.map { .string($0) } ?? .null
        case .showNativeDialog: "native"
        }
    }
}
