import Multipeer

/// A message of the guessnum room protocol, and of the games on it.
///
/// Every message is a JSON object sent as a typed session message whose type string names
/// the protocol and its version: the room's own messages (chat, joins and leaves, renames, sync
/// requests, errors) are `guessnum.v1.…`, whatever the game; a game's own are under its
/// ``GameKind/messagePrefix`` (`guessnum.v1.guess`, `tictactoe.v1.…`). A receiver that meets a
/// type it does not know logs it and ignores it, so newer programs may add messages without
/// breaking older ones; a change that older programs cannot ignore gets a new version
/// (`guessnum.v2.…`).
public protocol GameMessage: SessionMessage {}
