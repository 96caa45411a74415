import ArgumentParser

/// `conformance version`: the package's release, the suite's version and the report schema's, each with what it is the
/// version of (`--version` prints the three on one line).
struct VersionCommand: ConformanceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Prints the package's release, the suite's version and the report schema's version.")

    func execute(_ context: CommandContext) throws -> Int32 {
        print(PinnedNetworkVersion.explained)
        return 0
    }
}
