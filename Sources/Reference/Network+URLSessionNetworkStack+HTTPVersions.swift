extension Network.URLSessionNetworkStack {
    /// Which HTTP versions the stack offers a server over TLS; NetworkCore's, shared with every stack of the package
    /// (the name stays for source compatibility).
    public typealias HTTPVersions = NetworkCore.HTTPVersions
}
