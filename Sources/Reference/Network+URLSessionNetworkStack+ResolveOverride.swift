extension Network.URLSessionNetworkStack {

    /// An address to connect to for a host name and port, instead of asking DNS (NetworkCore's `HostOverride`).
    public typealias ResolveOverride = HostOverride
}

extension HostOverride {
    /// The entry in libcurl's `HOST:PORT:ADDRESS` form (an IPv6 address in brackets).
    var curlEntry: String {
        "\(host):\(port):\(address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address)"
    }
}
