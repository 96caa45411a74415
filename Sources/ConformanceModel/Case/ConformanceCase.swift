/// One conformance case: a stable ID, what it checks and why, and everything needed to run it.
///
/// IDs are namespaced (`family.group.name`) and never change meaning: a case whose expectation must change
/// gets a new ID, and the old one is retired, so reports can be compared across versions.
public struct ConformanceCase: Sendable, Identifiable {
    /// The stable ID, e.g. `retry.max-retries.boundary-3`.
    public let id: String
    /// One line: what the case checks.
    public let title: String
    /// The rules of `docs/spec` it checks (`RETRY-7`, `PIN-3`); never empty.
    public let rules: [String]
    /// How strongly the spec asks for it.
    public let level: ConformanceLevel
    /// The trigger, and why the expected outcome follows from the spec.
    public let explanation: String
    /// Features the subject must have; otherwise the case is SKIP.
    public let requires: Set<SubjectFeature>
    /// The server and its script.
    package let server: ServerScript
    /// The stack's configuration.
    package let stack: StackSetup
    /// The resource.
    package let resource: ResourceSpec
    /// What the runner does.
    package let action: CaseAction
    /// What must happen.
    package let expected: Expectation

    /// Creates a case.
    package init(
        id: String, title: String, rules: [String], level: ConformanceLevel = .must, explanation: String,
        requires: Set<SubjectFeature> = [], server: ServerScript, stack: StackSetup = .standard,
        resource: ResourceSpec = .get, action: CaseAction = .fetch, expected: Expectation
    ) {
        self.id = id
        self.title = title
        self.rules = rules
        self.level = level
        self.explanation = explanation
        self.requires = (server.tlsScenario == nil ? requires : requires.union([.customTrustRoots])).union(stack.requiredFeatures)
            .union(Self.derivedFeatures(server: server, stack: stack, action: action, expected: expected))
        self.server = server
        self.stack = stack
        self.resource = resource
        self.action = action
        self.expected = expected
    }

    /// The family: the first component of the ID (`retry`, `error`, `trust`).
    public var family: String { String(id.prefix { $0 != "." }) }
}
