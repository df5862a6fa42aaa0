/// The length-value encodings of draft-irtf-cfrg-cpace: each string prefixed with its length
/// in LEB128, so that no two different lists of strings encode to the same bytes.
enum LengthValue {
    /// `prepend_len(data)`: the LEB128 encoding of `data.count`, then `data`.
    static func prependingLength(_ data: [UInt8]) -> [UInt8] {
        var length = data.count
        var encoded: [UInt8] = []
        repeat {
            let low = UInt8(length & 0x7f)
            length >>= 7
            encoded.append(length == 0 ? low : low | 0x80)
        } while length != 0
        return encoded + data
    }

    /// `lv_cat(a0, a1, …)`: each string with its length prepended, concatenated.
    static func concatenating(_ strings: [UInt8]...) -> [UInt8] {
        strings.flatMap(prependingLength)
    }
}
