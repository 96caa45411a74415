import Foundation

/// A file read whole, or why it could not be: the one place that tells a missing file from a folder and from one
/// that cannot be read, so that every reader of certificates, keys and pins names the same mistakes the same way.
package enum FileContents {

    /// Why a file could not be read.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case missing, folder, unreadable

        package var description: String {
            switch self {
            case .missing: "no such file"
            case .folder: "it is a folder, not a file"
            case .unreadable: "the file cannot be read (permissions?)"
            }
        }
    }

    /// The bytes of the file at `path`.
    package static func read(_ path: String) throws(Problem) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .missing }
        guard !isFolder.boolValue else { throw .folder }
        guard let contents = FileManager.default.contents(atPath: path) else { throw .unreadable }
        return contents
    }
}
