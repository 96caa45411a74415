import Foundation

/// Finds a folder of this repository (the fixtures, the spec) for a run that may start anywhere: the path in an
/// environment variable, then the folder under the working directory or one of its parents, then the one beside
/// this source file (a build from a checkout).
enum RepositoryFolder {

    /// The candidates, in the order they are tried.
    static func candidates(_ relative: String, environment variable: String) -> [URL] {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment[variable] { candidates.append(URL(fileURLWithPath: path)) }
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent(relative))
            directory.deleteLastPathComponent()
        }
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(relative))
        return candidates
    }
}
