import Foundation

/// A file the command writes, checked before any work: a run of minutes must not end in a report that has nowhere
/// to go. It is then written whole or not at all.
struct OutputFile {
    /// The path as given.
    let path: String

    /// Refuses, with ``CommandFailure/Status/cannotCreate``, a path whose folder is missing or not writable, or that
    /// names a folder.
    init(checking path: String) throws {
        self.path = path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw CommandFailure(.cannotCreate, "cannot create \(path): it is a folder")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure(.cannotCreate, "cannot create \(path): no folder \(folder)")
        }
        guard access(folder, W_OK) == 0 else { throw CommandFailure(.cannotCreate, "cannot create \(path): \(folder) is not writable") }
    }

    /// Writes the text, or fails with ``CommandFailure/Status/io`` and leaves no partial file.
    ///
    /// A regular file (or a new one) is written beside itself and renamed into place, through any symbolic link;
    /// anything else that exists (`/dev/stdout`, a pipe) is written to as it is, since renaming over it would
    /// replace the device or the link instead of writing to it.
    func write(_ text: String) throws {
        var status = stat()
        if stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG {
            return try writeThrough(Array(text.utf8))
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path).resolvingSymlinksInPath(), options: .atomic)
        } catch {
            throw CommandFailure(.io, "cannot write \(path): \(CommandFailure.oneLine(error))")
        }
    }

    /// Writes to what the path opens as it is: a device or a pipe, where nothing partial can be taken back.
    private func writeThrough(_ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CommandFailure(.cannotCreate, "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var offset = 0
        // Each turn writes at least one byte or fails, so the loop ends.
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw CommandFailure(.io, "cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += written
        }
    }
}
