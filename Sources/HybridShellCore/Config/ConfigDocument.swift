import Foundation
import TOMLKit

/// A configuration file parsed into JSON values, with the line of every key so that errors can
/// say where: `kiosk.toml:12: kiosk.hide_cursor: expected …`. TOML (TOMLKit) or JSON (by extension).
public struct ConfigDocument: Sendable {
    public let file: String
    public let root: [String: JSONValue]
    /// Dotted key paths (`page.0.timeout`) to 1-based lines.
    let lines: [String: Int]

    public static func load(path: String) throws(ShellError) -> ConfigDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidArgument("cannot read the configuration file \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidArgument("\(path): the configuration file is not UTF-8 text")
        }
        return try parse(text, file: path, format: path.lowercased().hasSuffix(".json") ? .json : .toml)
    }

    public enum Format: Sendable { case toml, json }

    public static func parse(_ text: String, file: String, format: Format) throws(ShellError) -> ConfigDocument {
        switch format {
        case .json:
            let (value, lines): (JSONValue, [String: Int])
            do {
                (value, lines) = try JSONKeyLines.parse(text)
            } catch {
                throw .invalidArgument("\(file):\(TextPosition.line(of: error.offset, in: text)): \(error)")
            }
            guard let root = value.objectValue else { throw .invalidArgument("\(file):1: the configuration must be a JSON object") }
            return ConfigDocument(file: file, root: root, lines: lines)
        case .toml:
            let table: TOMLTable
            do {
                table = try TOMLTable(string: text)
            } catch let error as TOMLParseError {
                throw .invalidArgument("\(file):\(error.source.begin.line): \(error.description)")
            } catch {
                throw .invalidArgument("\(file): \(error)")
            }
            return ConfigDocument(file: file, root: TOMLConversion.object(table), lines: TOMLKeyLines.scan(text))
        }
    }

    func line(of path: [String]) -> Int? {
        var candidate = path
        while !candidate.isEmpty {
            if let line = lines[candidate.joined(separator: ".")] { return line }
            candidate.removeLast()
        }
        return nil
    }
}

/// TOML values as JSON values (dates and times become their TOML text).
enum TOMLConversion {
    static func object(_ table: TOMLTable) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for key in table.keys {
            if let value = table[key] { members[key] = self.value(value) }
        }
        return members
    }

    static func value(_ value: TOMLValueConvertible) -> JSONValue {
        switch value.type {
        case .table: return .object(object(value.table!))
        case .array: return .array(value.array!.map { self.value($0) })
        case .string: return .string(value.string!)
        case .int: return .number(Double(value.int!))
        case .double: return .number(value.double!)
        case .bool: return .bool(value.bool!)
        case .date, .time, .dateTime: return .string(value.tomlValue.debugDescription)
        }
    }
}

/// The line of each key in TOML text: `[table]` and `[[array]]` headers, `key = value` lines,
/// dotted keys. Enough to point at the line an error is about (TOMLKit keeps no positions).
enum TOMLKeyLines {
    static func scan(_ text: String) -> [String: Int] {
        var lines: [String: Int] = [:]
        var prefix: [String] = []
        var arrayCounts: [String: Int] = [:]
        // Inside a multi-line string (''' or """), lines belong to the string: no keys there.
        var openString: String?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if let delimiter = openString {
                if line.components(separatedBy: delimiter).count % 2 == 0 { openString = nil }
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if let equals = line.firstIndex(of: "="), !line.hasPrefix("[") {
                let value = line[line.index(after: equals)...]
                for delimiter in [String(repeating: "\"", count: 3), String(repeating: "'", count: 3)] where value.components(separatedBy: delimiter).count % 2 == 0 {
                    openString = delimiter
                }
            }
            if line.hasPrefix("[[") {
                let name = keyPath(String(line.dropFirst(2).prefix { $0 != "]" }))
                let joined = name.joined(separator: ".")
                let position = arrayCounts[joined, default: 0]
                arrayCounts[joined] = position + 1
                prefix = name + [String(position)]
                lines[prefix.joined(separator: ".")] = index + 1
            } else if line.hasPrefix("[") {
                prefix = keyPath(String(line.dropFirst().prefix { $0 != "]" }))
                lines[prefix.joined(separator: ".")] = index + 1
            } else if let equals = line.firstIndex(of: "=") {
                let key = keyPath(String(line[..<equals]))
                lines[(prefix + key).joined(separator: ".")] = index + 1
            }
        }
        return lines
    }

    /// `a."b.c".d` → ["a", "b.c", "d"].
    static func keyPath(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingCharacters(in: .whitespaces))
        return parts.filter { !$0.isEmpty }
    }
}
