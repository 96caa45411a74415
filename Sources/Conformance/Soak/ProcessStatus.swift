import Foundation

/// What the soak watches of its own process, from `/proc/self`.
struct ProcessStatus: CustomStringConvertible {
    let residentBytes: Int
    let openFiles: Int
    let threads: Int

    static func now() -> ProcessStatus {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let files = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let threads =
            status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            .flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return ProcessStatus(residentBytes: pages * Int(sysconf(Int32(_SC_PAGESIZE))), openFiles: files, threads: threads)
    }

    var description: String {
        String(format: "RSS %.1f MiB, %d fds, %d threads", Double(residentBytes) / 1_048_576, openFiles, threads)
    }
}
