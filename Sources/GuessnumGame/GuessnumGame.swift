// The game module (issue 4) is being written.
