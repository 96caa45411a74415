import NetworkCore
import Testing

@Suite("HTTP.StatusCode")
struct HTTPStatusCodeTests {

    @Test(
        "classifies by range",
        arguments: [
            (100, HTTP.StatusCode.informational(100)), (199, .informational(199)),
            (200, .success(200)), (299, .success(299)), (300, .redirection(300)), (399, .redirection(399)),
            (400, .clientError(400)), (499, .clientError(499)), (500, .serverError(500)), (599, .serverError(599)),
            (600, .unknownError(600)), (99, .unknownError(99)), (0, .unknownError(0)), (-1, .unknownError(-1)),
            (Int.max, .unknownError(Int.max)), (Int.min, .unknownError(Int.min)),
        ])
    func classification(code: Int, expected: HTTP.StatusCode) {
        #expect(HTTP.StatusCode(code) == expected)
        #expect(HTTP.StatusCode(code).statusCode == code)
    }

    @Test("equality compares the case, not only the code")
    func equalityComparesCase() {
        #expect(HTTP.StatusCode.unknownError(200) != HTTP.StatusCode.success(200))
    }
}
