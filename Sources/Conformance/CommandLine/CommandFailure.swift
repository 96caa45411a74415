import ConformanceModel
import Foundation

/// A failure of the command that is not in how it was called: one line saying what is wrong, and the sysexits(3)
/// status that says what kind it is. The command prints the line and exits with the status, having written nothing.
struct CommandFailure: Error, CustomStringConvertible {

    /// The kinds of failure, with their sysexits(3) numbers.
    enum Status: Int32 {
        /// A call that cannot work (`EX_USAGE`).
        case usage = 64
        /// An input that is there but unusable, such as a file that is not a report (`EX_DATAERR`).
        case data = 65
        /// An input that is missing or unreadable (`EX_NOINPUT`).
        case noInput = 66
        /// A helper process of the command that did not start as it should (`EX_SOFTWARE`).
        case software = 70
        /// An output that cannot be created (`EX_CANTCREAT`).
        case cannotCreate = 73
        /// A read or write that failed on the way (`EX_IOERR`).
        case io = 74
    }

    let status: Status
    let message: String
    var description: String { message }

    init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// Sorts an error from below the command (the fixtures, the file system) into a status, in one line.
    init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let missing as FixturesNotFound: self.init(.noInput, missing.description)
        case let incomplete as CatalogueIncomplete: self.init(.noInput, incomplete.description)
        case let cocoa as CocoaError where [.fileNoSuchFile, .fileReadNoSuchFile].contains(cocoa.code):
            self.init(.noInput, (cocoa.filePath.map { "\($0): " } ?? "") + Self.oneLine(cocoa))
        case let cocoa as CocoaError: self.init(.io, (cocoa.filePath.map { "\($0): " } ?? "") + Self.oneLine(cocoa))
        default: self.init(.io, Self.oneLine(error))
        }
    }

    /// An error as one line: Foundation's file errors as the system's reason ("No such file or directory"), never
    /// as their `NSCocoaErrorDomain` dump; decoding errors as what is wrong and where.
    static func oneLine(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context): return "missing \(path(context.codingPath + [key]))"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return "\(context.debugDescription) at \(path(context.codingPath))"
            @unknown default: break
            }
        }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.underlying as? POSIXError { return String(cString: strerror(underlying.code.rawValue)) }
            if let number = posixNumbers[cocoa.code] { return String(cString: strerror(number)) }
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return "\(error.localizedDescription)".split(separator: "\n").joined(separator: " ")
    }

    /// Foundation's file errors that come without the system's error inside, and the system's number for each.
    private static let posixNumbers: [CocoaError.Code: Int32] = [
        .fileNoSuchFile: ENOENT, .fileReadNoSuchFile: ENOENT, .fileReadNoPermission: EACCES, .fileWriteNoPermission: EACCES,
        .fileWriteOutOfSpace: ENOSPC, .fileWriteVolumeReadOnly: EROFS,
    ]

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
