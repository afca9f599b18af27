/// A JavaScript dialog a page opened (`WebKitScriptDialog`).
public struct ScriptDialog: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case alert, confirm, prompt
        /// The "leave this page?" question of a `beforeunload` handler.
        case beforeUnloadConfirm
    }

    public let kind: Kind
    public let message: String
    /// The prompt's default text (`prompt` only).
    public let defaultText: String?

    public init(kind: Kind, message: String, defaultText: String? = nil) {
        self.kind = kind
        self.message = message
        self.defaultText = defaultText
    }
}

/// How a dialog was (or should be) answered.
public enum DialogAnswer: Sendable, Equatable {
    /// Close an alert.
    case dismiss
    /// OK (`true`) or Cancel (`false`) for `confirm` and `beforeunload`.
    case confirm(Bool)
    /// The text a `prompt` returns; nil is Cancel (`prompt` returns `null`).
    case prompt(String?)
    /// Let WebKit show its own GTK dialog (visible windows only; it blocks until a person answers).
    case showNativeDialog
}

/// Decides dialogs nobody else answered. The default never blocks: alerts are dismissed,
/// `confirm` and `beforeunload` get OK, `prompt` gets its default text. Each one is still
/// reported as a ``PageEvent/dialog(_:answer:)``.
public struct DialogPolicy: Sendable {
    public var answer: @Sendable (ScriptDialog) -> DialogAnswer

    public init(answer: @escaping @Sendable (ScriptDialog) -> DialogAnswer) {
        self.answer = answer
    }

    /// Answers without asking anyone; never blocks.
    public static func automatic(confirm: Bool = true, prompt: PromptAnswer = .defaultText) -> DialogPolicy {
        DialogPolicy { dialog in
            switch dialog.kind {
            case .alert: return .dismiss
            case .confirm, .beforeUnloadConfirm: return .confirm(confirm)
            case .prompt:
                switch prompt {
                case .defaultText: return .prompt(dialog.defaultText ?? "")
                case .cancel: return .prompt(nil)
                case .text(let text): return .prompt(text)
                }
            }
        }
    }

    /// WebKit's own dialogs; only sensible with a visible window and a person in front of it.
    public static let native = DialogPolicy { _ in .showNativeDialog }

    public enum PromptAnswer: Sendable, Equatable {
        case defaultText
        case cancel
        case text(String)
    }
}
