import Foundation

/// `Codable` conversions between ``JSONValue`` and Swift types, through the JSON text both share.
package enum JSONValueDecoding {
    package static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(value.jsonText.utf8))
    }

    static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let data = try JSONEncoder().encode(value)
        return try JSONParser().parse(String(decoding: data, as: UTF8.self))
    }
}
