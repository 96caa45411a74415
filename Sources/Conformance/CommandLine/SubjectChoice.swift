import ArgumentParser
import ConformanceModel

/// `--subject NAME`: which of the command's subjects a subcommand runs (`run`, `soak`), the first by default.
struct SubjectChoice: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The subject: \(CommandContext.names.subjects.joined(separator: " or ")) (default: \(CommandContext.names.subjects.first ?? "none")).",
            valueName: "name"),
        completion: .list(CommandContext.names.subjects))
    var subject: String?

    func validate() throws {
        if let subject, !CommandContext.names.subjects.contains(subject) {
            throw ValidationError("no subject \(subject); known: \(CommandContext.names.subjects.joined(separator: ", "))")
        }
    }

    /// The chosen subject among the command's.
    func chosen(_ context: CommandContext) throws -> any ConformanceSubject {
        let name = subject ?? context.subjects.first?.0 ?? ""
        guard let chosen = context.subjects.first(where: { $0.0 == name })?.1 else {
            throw CommandFailure(.usage, "no subject \(name); known: \(context.subjects.map(\.0).joined(separator: ", "))")
        }
        return chosen
    }
}
