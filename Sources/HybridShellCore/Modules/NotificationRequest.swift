/// The arguments of `notification.show {title, body, icon?, actions?: [{id, label}]}`, checked:
/// `icon` is a themed icon name (never a path or URL a page could point the server at), at most
/// eight actions with distinct ids.
package struct NotificationRequest: Sendable, Equatable {
    package struct Action: Sendable, Equatable {
        package var id: String
        package var label: String
    }

    package var title: String
    package var body: String
    package var icon: String
    package var actions: [Action]

    static let handler = "notification.show"
    static let maxActions = 8

    package init(title: String, body: String, icon: String = "", actions: [Action] = []) {
        self.title = title
        self.body = body
        self.icon = icon
        self.actions = actions
    }

    package static func parse(_ data: RawJSON) throws(BridgeError) -> NotificationRequest {
        let arguments = try ModuleArguments(data, handler: handler, fields: ["title", "body", "icon", "actions"])
        let title = try arguments.string("title", maxLength: 1024)
        let body = try arguments.optionalString("body", maxLength: 65_536) ?? ""
        let icon = try arguments.optionalString("icon", maxLength: 255) ?? ""
        if !icon.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) })
            || icon.hasPrefix(".") {
            throw arguments.invalid("icon", "must be an icon name (letters, digits, - _ .), like \"mail-unread\", not \(JSONValue.quoted(icon))")
        }
        var actions: [Action] = []
        if let raw = arguments.members["actions"] {
            guard case .array(let items) = raw.value else { throw arguments.invalid("actions", "should be an array of {id, label}, not \(raw.value.typeName)") }
            guard items.count <= maxActions else { throw arguments.invalid("actions", "has \(items.count) actions; the limit is \(maxActions)") }
            for (index, item) in items.enumerated() {
                guard let object = item.objectValue, Set(object.keys) == ["id", "label"],
                      let id = object["id"]?.stringValue, let label = object["label"]?.stringValue else {
                    throw arguments.invalid("actions[\(index)]", "should be {id: string, label: string}, not \(item.jsonText)")
                }
                guard !id.isEmpty, id.utf8.count <= 64, label.utf8.count <= 256 else {
                    throw arguments.invalid("actions[\(index)]", "needs an id of 1 to 64 bytes and a label of at most 256")
                }
                guard !actions.contains(where: { $0.id == id }) else { throw arguments.invalid("actions[\(index)]", "repeats the id \(JSONValue.quoted(id))") }
                actions.append(Action(id: id, label: label))
            }
        }
        return NotificationRequest(title: title, body: body, icon: icon, actions: actions)
    }
}
