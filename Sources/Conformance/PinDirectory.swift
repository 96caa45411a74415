import Foundation

/// A directory holding copies of some fixture certificates: the `certificateDirectory` of a `TrustManager`
/// pinning policy, which pins every certificate file it finds (so a scenario's own folder, with its root and
/// chain files, would pin too much).
///
/// Directories live under the temporary directory, one per distinct file list and process, and are reused.
enum PinDirectory {

    /// A directory containing exactly these fixture-relative files (an empty list: an empty directory).
    ///
    /// - Throws: the file system's error.
    static func make(_ files: [String], from fixtures: FixtureCatalogue) throws -> URL {
        let key = files.isEmpty ? "empty" : files.joined(separator: "+").replacingOccurrences(of: "/", with: "_")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-pins-\(ProcessInfo.processInfo.processIdentifier)")
            .appendingPathComponent(key)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (index, file) in files.enumerated() {
            let target = directory.appendingPathComponent("\(index)-\(URL(fileURLWithPath: file).lastPathComponent)")
            if !FileManager.default.fileExists(atPath: target.path) {
                try? FileManager.default.copyItem(at: URL(fileURLWithPath: fixtures.path(file)), to: target)
                guard FileManager.default.fileExists(atPath: target.path) else {
                    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: fixtures.path(file)])
                }
            }
        }
        return directory
    }
}
