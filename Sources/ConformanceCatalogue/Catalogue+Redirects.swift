import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Which methods a redirect replays, how many redirects are followed, and where a redirect may not go
    /// (HTTP-9, HTTP-11, HTTP-13, HTTP-14).
    static var redirects: [ConformanceCase] {
        func redirect(_ status: Int, to location: String) -> MockResponse {
            MockResponse(status: status, headers: ["Location": location])
        }
        var cases: [ConformanceCase] = [
            ConformanceCase(
                id: "redirect.method.head-302-replayed", title: "a HEAD redirected by 302 is replayed as HEAD", rules: ["HTTP-9"],
                level: .should,
                explanation: "HEAD / answered 302 to /moved: the stack sends HEAD /moved and succeeds with its empty body.",
                server: .plain(redirect(302, to: "/moved"), MockResponse(status: 200, headers: ["Content-Length": "4"])),
                resource: ResourceSpec().with { $0.method = "HEAD" },
                expected: Expectation(
                    success("", status: 200), journal: .requests(2),
                    checks: [.requestMethod(index: 1, method: "HEAD"), .requestPath(index: 1, path: "/moved")])),
            ConformanceCase(
                id: "redirect.method.post-307-replayed", title: "a POST redirected by 307 is replayed as POST with its body",
                rules: ["HTTP-9"], level: .should,
                explanation:
                    "POST / with a body answered 307 to /moved: 307 keeps the method and body, so POST /moved carries the same body.",
                server: .plain(redirect(307, to: "/moved"), ok("posted")),
                resource: ResourceSpec().with {
                    $0.method = "POST"; $0.body = Data("payload".utf8)
                },
                expected: Expectation(
                    success("posted"), journal: .requests(2),
                    checks: [.requestMethod(index: 1, method: "POST"), .requestBody(index: 1, body: "payload")])),
            ConformanceCase(
                id: "redirect.method.post-303-becomes-get", title: "a POST redirected by 303 is followed with a GET",
                rules: ["HTTP-9", "HTTP-19"],
                explanation: "303 See Other asks for the result with GET: the stack sends GET /result, without the POST body.",
                server: .plain(redirect(303, to: "/result"), ok("result")),
                resource: ResourceSpec().with {
                    $0.method = "POST"; $0.body = Data("payload".utf8)
                },
                expected: Expectation(
                    success("result"), journal: .requests(2),
                    checks: [
                        .requestMethod(index: 1, method: "GET"), .requestBody(index: 1, body: ""), .requestPath(index: 1, path: "/result"),
                    ])),
            ConformanceCase(
                id: "redirect.method.post-303-becomes-get.large-body-tls",
                title: "a POST of 64 KiB redirected by 303 over HTTPS is followed with a GET and no body",
                rules: ["HTTP-9", "HTTP-19"],
                explanation:
                    "As redirect.method.post-303-becomes-get, with another input: a 64 KiB body, too large to go out with the head in one write, over TLS. The follow-up is GET /result with no body: a stack that replays the POST on a 303 sends the 64 KiB again.",
                server: .tls("valid-ec256", redirect(303, to: "/result"), ok("result")),
                resource: ResourceSpec().with {
                    $0.method = "POST"; $0.body = Data(repeating: UInt8(ascii: "p"), count: 64 * 1024)
                },
                expected: Expectation(
                    success("result"), journal: .requests(2),
                    checks: [
                        .requestMethod(index: 1, method: "GET"), .requestBody(index: 1, body: ""), .requestPath(index: 1, path: "/result"),
                    ])),
        ]
        for (method, status) in [("PUT", 307), ("PATCH", 308), ("DELETE", 302)] {
            cases.append(
                ConformanceCase(
                    id: "redirect.method.\(method.lowercased())-\(status)-returned",
                    title: "a \(method) answered \(status) is not replayed: http(\(status))",
                    rules: ["HTTP-9", "ERR-1"], level: .should,
                    explanation:
                        "Only GET, HEAD and POST follow redirects; a \(method) gets its \(status) back as http(\(status)), and the Location is never asked for.",
                    server: .plain(redirect(status, to: "/elsewhere"), ok("must not be fetched")),
                    resource: ResourceSpec().with {
                        $0.method = method; $0.body = Data("m".utf8)
                    },
                    expected: Expectation(Outcome(kind: .http, status: status), journal: .requests(1))))
        }
        // HTTP-19 beyond POST: whether a PUT or DELETE follows redirects is the stack's choice, but a 303 is never answered
        // by sending the request again with its own method.
        for (method, tls) in [("PUT", false), ("DELETE", true)] {
            let answers = [redirect(303, to: "/result"), ok("result")]
            cases.append(
                ConformanceCase(
                    id: "redirect.method.\(method.lowercased())-303-never-sent-again",
                    title: "a \(method) answered 303 is returned, or followed with a GET: never sent again as \(method)",
                    rules: ["HTTP-19"],
                    explanation:
                        "\(method) / with a body, answered 303 to /result\(tls ? " over TLS" : ""). Either the 303 is the response, http(303) with one request, or the stack follows it with GET /result and no body. A stack that keeps a custom method across every redirect, as libcurl does when told to follow, sends \(method) /result with the body.",
                    server: ServerScript(tlsScenario: tls ? "valid-ec256" : nil, responses: answers),
                    resource: ResourceSpec().with {
                        $0.method = method; $0.body = Data("payload".utf8)
                    },
                    expected: Expectation(
                        Outcome(kind: .http, status: 303), journal: .requests(1),
                        or: [
                            Expectation(
                                success("result"), journal: .requests(2),
                                checks: [
                                    .requestMethod(index: 1, method: "GET"), .requestBody(index: 1, body: ""),
                                    .requestPath(index: 1, path: "/result"),
                                ])
                        ])))
        }
        cases += [
            ConformanceCase(
                id: "redirect.limit.sixteen-followed", title: "a chain of 16 redirects is followed to its end", rules: ["HTTP-13"],
                level: .should,
                explanation:
                    "Sixteen 302s in a row, then a 200: the limit is 16 redirects, as URLSession's, so the fetch succeeds after 17 requests.",
                server: .plain(Array(repeating: redirect(302, to: "/again"), count: 16) + [ok("end")]),
                expected: Expectation(success("end"), journal: .requests(17))),
            ConformanceCase(
                id: "redirect.limit.seventeen-refused", title: "a seventeenth redirect in a row fails with httpTooManyRedirects",
                rules: ["HTTP-13", "HTTP-23"], level: .should,
                explanation:
                    "A server that redirects every request to itself: after 16 redirects followed, the 17th fails the fetch with url(httpTooManyRedirects), 17 requests in all.",
                server: ServerScript(repeating: redirect(302, to: "/again")),
                expected: Expectation(url(.httpTooManyRedirects), journal: .requests(17))),
            ConformanceCase(
                id: "redirect.limit.given.three-followed", title: "given a limit of 3, a chain of 3 redirects is followed to its end",
                rules: ["HTTP-24"],
                explanation:
                    "The stack is given a redirect limit of 3. Three 302s in a row, then a 200: the fetch succeeds after 4 requests. A stack that stops one short fails with url(httpTooManyRedirects).",
                server: .plain(Array(repeating: redirect(302, to: "/again"), count: 3) + [ok("end")]),
                stack: StackSetup(maximumRedirects: 3), expected: Expectation(success("end"), journal: .requests(4))),
            ConformanceCase(
                id: "redirect.limit.given.fourth-refused",
                title: "given a limit of 3, a fourth redirect in a row fails with httpTooManyRedirects",
                rules: ["HTTP-24", "HTTP-23"],
                explanation:
                    "The stack is given a redirect limit of 3, and the server redirects every request to itself, over TLS: three redirects are followed, the fourth fails the fetch with url(httpTooManyRedirects), 4 requests in all. A limit off by one asks for a fifth.",
                server: ServerScript(tlsScenario: "valid-ec256", repeating: redirect(302, to: "/again")),
                stack: StackSetup(maximumRedirects: 3), expected: Expectation(url(.httpTooManyRedirects), journal: .requests(4))),
            ConformanceCase(
                id: "redirect.limit.loop-ends",
                title: "a server that redirects to itself forever cannot hold a fetch: httpTooManyRedirects",
                rules: ["HTTP-23"],
                explanation:
                    "Every request is answered 302 to the same path. Whatever its limit, the stack stops following and fails the fetch with url(httpTooManyRedirects), within the request's timeout (a stack that follows without end times out instead).",
                server: ServerScript(repeating: redirect(302, to: "/loop")), resource: ResourceSpec().with { $0.timeout = 5 },
                expected: Expectation(url(.httpTooManyRedirects))),
            ConformanceCase(
                id: "redirect.scheme.ftp-refused", title: "a redirect to ftp:// fails with unsupportedURL", rules: ["HTTP-14"],
                explanation:
                    "A 302 to ftp://127.0.0.1:1/file: an HTTP stack never follows to another scheme; url(unsupportedURL) after one request.",
                server: .plain(redirect(302, to: "ftp://127.0.0.1:1/file")),
                expected: Expectation(url(.unsupportedURL), journal: .requests(1))),
            ConformanceCase(
                id: "redirect.scheme.file-refused", title: "a redirect to file:// over TLS fails with unsupportedURL",
                rules: ["HTTP-14", "HTTP-11"],
                explanation: "An HTTPS 301 to file:///etc/hostname: never followed, url(unsupportedURL) after one request.",
                server: .tls("valid-ec256", redirect(301, to: "file:///etc/hostname")),
                expected: Expectation(url(.unsupportedURL), journal: .requests(1))),
            ConformanceCase(
                id: "redirect.scheme.https-to-http-307",
                title: "a 307 from HTTPS to plain HTTP on localhost is refused with unsupportedURL", rules: ["HTTP-11"],
                explanation:
                    "As body.redirect-https-to-http-refused, with a 307 and a host name rather than an address: leaving TLS is refused whatever the status and the host.",
                server: .tls("valid-ec256", redirect(307, to: "http://localhost:1/landing")),
                expected: Expectation(url(.unsupportedURL), journal: .requests(1))),
        ]
        cases += credentials(redirect)
        return cases
    }

    /// Credentials the request carried, across a redirect to another origin and within one (HTTP-20).
    private static func credentials(_ redirect: (Int, String) -> MockResponse) -> [ConformanceCase] {
        let credentials = ["Authorization": "Bearer s3cret", "Cookie": "session=s3cret"]
        /// A redirect to `location` after a request with the credentials; the second request carries `second`.
        func redirected(
            _ status: Int, to location: String, id: String, title: String, explanation: String, second: [String: String?]
        ) -> ConformanceCase {
            let sent = credentials.keys.sorted().map { Check.requestHeader(index: 0, name: $0, value: credentials[$0]) }
            let received = second.keys.sorted().map { Check.requestHeader(index: 1, name: $0, value: second[$0] ?? nil) }
            return ConformanceCase(
                id: id, title: title, rules: ["HTTP-20"], explanation: explanation,
                server: .plain(redirect(status, location), ok("landed")), resource: ResourceSpec.get.with { $0.headers = credentials },
                expected: Expectation(success("landed"), journal: .requests(2), checks: sent + received))
        }
        let otherOrigin = "\(ServerScript.otherOriginPlaceholder)/landing"
        let none: [String: String?] = ["Authorization": nil, "Cookie": nil]
        return [
            redirected(
                302, to: otherOrigin, id: "redirect.credentials.other-host-dropped",
                title: "a redirect to another host is followed without the request's Authorization and Cookie",
                explanation:
                    "The request to 127.0.0.1 carries Authorization and Cookie fields; a 302 sends it to the same server under the name localhost, another origin (over TLS, from localhost to 127.0.0.1, both names of the server's certificate). The redirect is followed, and the second request carries neither field: credentials set for one origin never reach another.",
                second: none),
            redirected(
                307, to: otherOrigin, id: "redirect.credentials.other-host-307-dropped",
                title: "a 307 to another host, which keeps the method and body, still drops Authorization and Cookie",
                explanation:
                    "As redirect.credentials.other-host-dropped, with a 307, which replays the request as it was: the method and body stay, the credentials do not. A stack that rebuilds the request from scratch only for a 301, 302 or 303, and copies it whole for a 307, passes the 302 case and leaks the credentials here.",
                second: none),
            redirected(
                302, to: "/landing", id: "redirect.credentials.same-origin-kept",
                title: "a redirect within one origin keeps the request's Authorization and Cookie",
                explanation:
                    "A 302 to /landing on the same scheme, host and port: the second request carries the same Authorization and Cookie fields, so a redirect inside an API does not log its caller out. A stack that drops credentials on every redirect passes the cases of another host and fails here.",
                second: credentials.mapValues { $0 }),
        ]
    }
}
