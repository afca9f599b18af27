import Foundation

/// Where `print.page {printer?, file?, silent?}` may print, decided before anything is printed:
/// a `file` only inside `print_dirs` (always without a dialog: the settings approved the place), a
/// printer without a dialog only when `printers` names it, otherwise GTK's dialog — where the
/// person decides — unless dialogs are off (a kiosk). Deny by default.
package struct PrintPolicy: Sendable, Equatable {
    package var directories: [String]
    package var printers: [String]
    /// False in a kiosk: a print dialog would let a user out of the lock-down.
    package var dialogAllowed: Bool

    static let handler = "print.page"

    package init(directories: [String], printers: [String], dialogAllowed: Bool) {
        self.directories = directories
        self.printers = printers
        self.dialogAllowed = dialogAllowed
    }

    /// The target for `data`, or the refusal (`INVALID_MESSAGE`, `DENIED` with `details.reason`
    /// `pathNotAllowed`, `printerNotAllowed` or `dialogNotAllowed`).
    package func decide(_ data: RawJSON) throws(BridgeError) -> PrintTarget {
        let arguments = try ModuleArguments(data, handler: Self.handler, fields: ["printer", "file", "silent"])
        let printer = try arguments.optionalString("printer", maxLength: 255)
        let file = try arguments.optionalString("file", maxLength: 4096)
        let silent = try arguments.optionalBool("silent") ?? false
        if printer != nil, file != nil { throw arguments.invalid("file", "cannot be given with printer (a file is printed by the PDF printer)") }
        if let printer, printer.isEmpty || printer.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw arguments.invalid("printer", "must be a printer's name, not \(JSONValue.quoted(printer))")
        }
        if let file {
            guard file.hasPrefix("/"), file.lowercased().hasSuffix(".pdf") else {
                throw arguments.invalid("file", "must be an absolute path of a .pdf file, not \(JSONValue.quoted(file))")
            }
            guard let allowed = Self.allowedPath(file, directories: directories) else {
                throw Self.denied("\(JSONValue.quoted(file)) is not inside a directory of module_settings.print_dirs", reason: "pathNotAllowed")
            }
            return .file(path: allowed)
        }
        if silent {
            guard let printer else { throw arguments.invalid("printer", "is needed to print silently (or a file)") }
            guard printers.contains(printer) else {
                throw Self.denied("the printer \(JSONValue.quoted(printer)) is not in module_settings.printers", reason: "printerNotAllowed")
            }
            return .printer(name: printer)
        }
        guard dialogAllowed else {
            throw Self.denied("no print dialog here; print silently to a printer of module_settings.printers", reason: "dialogNotAllowed")
        }
        return .dialog(printer: printer)
    }

    static func denied(_ message: String, reason: String) -> BridgeError {
        BridgeError(.denied, "\(handler): \(message)", details: ["handler": .string(handler), "reason": .string(reason)])
    }

    /// `path` when it names a file directly inside (or under) one of `directories`, both with
    /// symbolic links resolved, and is not itself a link or anything but a regular file; else nil.
    /// The path must be in normal form: `..`, `.` and empty segments are refused, not resolved.
    static func allowedPath(_ path: String, directories: [String]) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        // A hidden name is refused too: the file is written under a hidden temporary name first.
        guard !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }), segments.last?.hasPrefix(".") == false,
              !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        let parent = (path as NSString).deletingLastPathComponent
        guard let realParent = realPath(parent) else { return nil }
        let inside = directories.contains { directory in
            guard let real = realPath(directory) else { return false }
            return realParent == real || realParent.hasPrefix(real == "/" ? "/" : real + "/")
        }
        guard inside else { return nil }
        var status = stat()
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG { return nil }
        return (realParent as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
