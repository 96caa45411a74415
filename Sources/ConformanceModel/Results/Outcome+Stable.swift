import Foundation

extension Outcome {

    /// The outcome with the parts of its free-text detail that change from run to run (the server's port, the
    /// name of a temporary pin directory) replaced by placeholders, so that two runs report the same text.
    func withStableDetail(port: Int) -> Outcome {
        guard var text = detail else { return self }
        text = text.replacingOccurrences(of: ":\(port)", with: ":<port>").replacingOccurrences(of: "port \(port)", with: "port <port>")
        text = text.replacingOccurrences(
            of: #"conformance-pins-[0-9A-Fa-f-]+"#, with: "conformance-pins-<temporary>", options: .regularExpression)
        var copy = self
        copy.detail = text
        return copy
    }
}
