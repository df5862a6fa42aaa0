import CAvahi
import Multipeer

extension TXTRecord {
    /// A C string list of `entries`; the caller frees it with `avahi_string_list_free`.
    static func makeList(_ entries: [String]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for entry in entries.reversed() {
            list = entry.withCString { avahi_string_list_add(list, $0) }
        }
        return list
    }

    /// The entries of a received list, as ``parse(_:)`` reads them.
    static func read(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [String: String] {
        var texts: [String] = []
        var node = list
        while let current = node {
            let size = Int(current.pointee.size)
            let bytes = withUnsafePointer(to: &current.pointee.text) { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: size) { Array(UnsafeBufferPointer(start: $0, count: size)) }
            }
            texts.append(String(decoding: bytes, as: UTF8.self))
            node = current.pointee.next
        }
        return parse(texts)
    }
}
