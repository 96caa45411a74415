extension Network.URLSessionNetworkStack {
    /// Which redirects the stack follows; NetworkCore's, shared with every stack of the package (the name stays for
    /// source compatibility).
    public typealias RedirectPolicy = NetworkCore.RedirectPolicy
}
