import Foundation
import MockServer

/// The server half of the soak, run as a child process (`soak --serve`) so that its journal, which keeps every
/// request, does not count against the client's memory.
enum SoakServer {

    /// Serves until standard input closes; prints the port on the first line of standard output.
    static func run() throws {
        let server = try MockServer()
        server.dispatcher = MockDispatcher { request in response(for: request.path) }
        // Written straight to the pipe: print's buffer would hold the port until exit.
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        while readLine() != nil {}
        _ = server.shutdown()
    }

    /// What each path of the soak mix answers.
    static func response(for path: String) -> MockResponse {
        switch path {
        case "/ok": return MockResponse(status: 200, body: Data(repeating: 0x61, count: 512))
        case "/big": return MockResponse(status: 200, body: Data(repeating: 0x62, count: 64 * 1024), chunked: [8192])
        case "/empty": return MockResponse(status: 200)
        case "/flaky": return Bool.random() ? MockResponse(status: 503) : MockResponse(status: 200, body: Data("ok".utf8))
        case "/close": return .fault(.closeWithNoReply)
        case "/reset": return .fault(.resetWithNoReply)
        case "/cut-head": return .fault(.headWithoutBlankLineThenClose)
        case "/cut-body": return MockResponse(status: 200, body: Data(count: 4096), fault: .closeAfterBodyBytes(100))
        case "/garbage": return .fault(.garbageThenClose(Data("not http\r\n\r\n".utf8)))
        case "/stall": return .fault(.stallAfterRequest)
        default: return MockResponse(status: 404)
        }
    }
}
