import Foundation

/// An encoder with sorted keys, so encoded text can be compared.
func jsonEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
}

func jsonDecoder() -> JSONDecoder { JSONDecoder() }

/// `value` encoded and decoded again.
func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
    try jsonDecoder().decode(Value.self, from: jsonEncoder().encode(value))
}
