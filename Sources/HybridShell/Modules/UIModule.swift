import Logging
import HybridShellCore
import HybridShellWebKit

/// The `ui` module: `ui.showToast {title, icon?, duration?}` and `ui.showModal {title?, content,
/// showCancel?, confirmText?, cancelText?}` → `{confirm, cancel}` (wx.showToast / showModal).
/// Every toast and modal is logged (`hybridshell.ui`). With `--window` they are drawn natively (a
/// popup, a GTK dialog the user answers); headless a modal is answered by policy (`modal_confirms`,
/// default confirm) so no run ever blocks on one.
public enum UIModule {
    public static let name = "ui"

    @EngineActor
    static func module(host: ModuleHost, headless: Bool, modalConfirms: Bool, logger: Logger = Logger(label: "hybridshell.ui")) -> NativeModule {
        NativeModule(name: name) { [weak host] handlers in
            handlers.registerRaw("ui.showToast", inOrder: { data, call in
                let arguments = try ModuleArguments(data, handler: "ui.showToast", fields: ["title", "icon", "duration"])
                let title = try arguments.string("title", maxLength: 4096)
                let icon = try arguments.optionalString("icon", maxLength: 16) ?? "success"
                guard ["success", "error", "loading", "none"].contains(icon) else {
                    throw arguments.invalid("icon", "must be success, error, loading or none, not \(JSONValue.quoted(icon))")
                }
                let duration = try arguments.optionalInt("duration", in: 0...600_000) ?? 1500
                logger.info("toast: \(title)", metadata: ["icon": .string(icon), "duration_ms": .stringConvertible(duration), "origin": .string(call.origin)])
                if !headless { Desktop.showToast(over: host?.page(of: call)?.view, text: title, duration: .milliseconds(duration)) }
                return .null
            })
            handlers.registerRaw("ui.showModal", inOrder: { data, call in
                let arguments = try ModuleArguments(data, handler: "ui.showModal",
                                                    fields: ["title", "content", "showCancel", "confirmText", "cancelText"])
                let title = try arguments.optionalString("title", maxLength: 4096) ?? ""
                let content = try arguments.string("content", maxLength: 65_536, allowEmpty: true)
                let showCancel = try arguments.optionalBool("showCancel") ?? true
                let confirmText = try arguments.optionalString("confirmText", maxLength: 64) ?? "OK"
                let cancelText = try arguments.optionalString("cancelText", maxLength: 64) ?? "Cancel"
                let confirm = headless
                    ? modalConfirms || !showCancel
                    : await Desktop.showModal(over: host?.page(of: call)?.view, title: title, content: content,
                                                    confirmText: confirmText, cancelText: showCancel ? cancelText : nil)
                logger.info("modal: \(title) — \(content)", metadata: ["answer": .string(confirm ? "confirm" : "cancel"), "origin": .string(call.origin)])
                return RawJSON(unchecked: JSONValue.object(["confirm": .bool(confirm), "cancel": .bool(!confirm)]).jsonText)
            })
        }
    }
}
