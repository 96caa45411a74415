import ArgumentParser

/// `conformance version`, the same as `--version`: the package's release, the suite's version and the report schema's.
struct VersionCommand: ConformanceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Prints the package's release, the suite's version and the report schema's version.")

    func execute(_ context: CommandContext) throws -> Int32 {
        print(PinnedNetworkVersion.line)
        return 0
    }
}
