extension SessionConfiguration {
    /// A session that moves files or long streams and carries no message that must not wait
    /// behind them (a file drop's receiver): the streams it reads may grow their windows to 4 MiB
    /// while it keeps up (``maximumStreamWindow``), which lifts one stream from one credit round
    /// trip per 256 KiB to one per 4 MiB. Only the reading side needs it.
    public static var bulkTransfer: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.maximumStreamWindow = 4 * 1024 * 1024
        return configuration
    }
}
