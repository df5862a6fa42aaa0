// The room layer's types (``Rooms/PlayerRef`` first) are part of this module's API.
@_exported import Rooms
