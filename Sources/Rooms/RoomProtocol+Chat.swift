extension RoomProtocol {
    /// Checks a chat line against both limits: at most ``maximumChatLength`` characters and
    /// ``maximumChatBytes`` UTF-8 bytes. The guest checks before sending; the host enforces.
    /// - Throws: ``GameError/Code/chatTooLong``, with a sentence that names the limit broken.
    public static func checkChat(_ text: String) throws(GameError) {
        let characters = text.count
        if characters > maximumChatLength { throw .chatTooLong(characters, limit: maximumChatLength) }
        let bytes = text.utf8.count
        if bytes > maximumChatBytes { throw .chatTooManyBytes(bytes, limit: maximumChatBytes) }
    }

    /// The most payload bytes a ``ChatMessage`` within the limits can take: the text escaped
    /// as JSON (at most six bytes per byte, `\\u00XX`) plus the object around it. Bigger
    /// payloads are refused without being decoded.
    package static let maximumChatPayloadBytes = maximumChatBytes * 6 + 64
}
