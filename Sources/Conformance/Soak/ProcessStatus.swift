internal import CHeapShims
import Foundation

/// What the soak watches of its own process, from `/proc/self`.
struct ProcessStatus: CustomStringConvertible {
    /// Bytes allocated and not freed (glibc's count over every arena): what a leak grows, and what the soak judges.
    let heapInUseBytes: Int
    /// Resident anonymous memory (`RssAnon`): the heap as malloc keeps it, freed parts included, thread stacks and
    /// other private pages. It grows as malloc's arenas fragment under allocations from many threads, without a leak:
    /// shown, not judged.
    let anonymousBytes: Int
    /// Resident pages of files (`RssFile`): code and libraries, paged in as code paths run for the first time. A rare
    /// fault path first taken late in the soak grows it once; it is shown, not judged.
    let fileBytes: Int
    let openFiles: Int
    let threads: Int

    static func now() -> ProcessStatus {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { $0.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 0
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return ProcessStatus(
            heapInUseBytes: cshims_heap_in_use(), anonymousBytes: field("RssAnon") * 1024, fileBytes: field("RssFile") * 1024,
            openFiles: files, threads: field("Threads"))
    }

    /// Whether `/proc/self/status` gave the figures: a soak that cannot see memory or threads cannot judge them.
    var isRead: Bool { heapInUseBytes > 0 && anonymousBytes > 0 && threads > 0 }

    var description: String {
        String(
            format: "heap in use %.1f MiB; RSS %.1f MiB anonymous + %.1f MiB of files; %d fds, %d threads",
            Double(heapInUseBytes) / 1_048_576, Double(anonymousBytes) / 1_048_576, Double(fileBytes) / 1_048_576, openFiles, threads)
    }
}
