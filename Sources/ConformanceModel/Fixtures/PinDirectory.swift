import Foundation

/// A directory holding copies of some fixture certificates: the `certificateDirectory` of a `TrustManager`
/// pinning policy, which pins every certificate file it finds (so a scenario's own folder, with its root and
/// chain files, would pin too much).
///
/// A policy reads its directory once, when it is created, so the directory lives only for that moment.
enum PinDirectory {

    /// Calls `body` with a new directory containing exactly these fixture-relative files (an empty list: an
    /// empty directory), then removes the directory.
    ///
    /// - Throws: the file system's error, or what `body` throws.
    static func with<T>(_ files: [String], from fixtures: FixtureCatalogue, _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-pins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, file) in files.enumerated() {
            let target = directory.appendingPathComponent("\(index)-\(URL(fileURLWithPath: file).lastPathComponent)")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: fixtures.path(file)), to: target)
        }
        return try body(directory)
    }
}
