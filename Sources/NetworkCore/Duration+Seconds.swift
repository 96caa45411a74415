extension Duration {
    /// The duration in seconds, as a `Double` (for reports, `Date` arithmetic and timeouts in seconds).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a `Double`.
    package var inMilliseconds: Double { inSeconds * 1000 }
}
