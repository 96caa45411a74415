import Foundation

/// How a fetch ended, reduced to what the spec cares about; both the expected and the actual side of a case.
///
/// On the expected side every optional field left `nil` means "any value": a case states only the details
/// that matter. ``detail`` is free text for humans and is never compared.
public struct Outcome: Sendable, Codable, Hashable, CustomStringConvertible {

    /// The shape of the result.
    public var kind: Kind
    /// The HTTP status (success, `http`, `noData`, or the last attempt's for `retry`).
    public var status: Int?
    /// The body as UTF-8 text (success), or the decoded model's description (`fetchAndDecode`).
    public var body: String?
    /// The `URLError` code of `url` (or of the last attempt for `retry`).
    public var urlErrorCode: Int?
    /// Expected side only: further `URLError` codes accepted instead of ``urlErrorCode``, where the same
    /// fault can honestly surface at two moments (a reset racing the TCP connect).
    public var alsoAcceptedURLErrorCodes: [Int]?
    /// The decoded API error of `http`, described; `"none"` when the decoder returned nil.
    public var apiError: String?
    /// The `Retry.Error` of `retry`: `retries(3)`, `delay(0.4)`, `custom(AuthRefused)`.
    public var retryError: String?
    /// For `retry`: how many attempts failed (the state's error count).
    public var attempts: Int?
    /// For `retry`: the state's total scheduled delay, in seconds (compared to 1 µs).
    public var totalDelay: Double?
    /// For `retry`: the kind of the last attempt's error (`http`, `url`, …).
    public var lastErrorKind: Kind?
    /// Why the server was not trusted: `chain:<kind>` (standard validation) or `handler:<reason>`; only
    /// compared when the expectation states it.
    public var trustFailure: String?
    /// For `configurationError`: the error's type and case (`PinningPolicyValidationError.invalidPins`).
    public var configurationError: String?
    /// The error type of `noRequest` or `retry(.custom)`, for humans.
    public var detail: String?
    /// For a body too large to write out in a report (over ``Outcome/largeBody`` bytes of UTF-8): its length.
    /// Set only on an outcome decoded from a report, whose ``body`` is then `nil`.
    public var bodyLength: Int?
    /// For a body too large to write out in a report: the SHA-256 of its UTF-8, in hexadecimal. Set only on an
    /// outcome decoded from a report.
    public var bodySHA256: String?

    /// Bodies longer than this many bytes are written to reports as their length and SHA-256, not in full: a
    /// 1 MiB body written twice (expected and actual) made most of a report's size.
    public static let largeBody = 1024

    /// Creates an outcome.
    public init(
        kind: Kind, status: Int? = nil, body: String? = nil, urlErrorCode: Int? = nil, apiError: String? = nil,
        retryError: String? = nil, attempts: Int? = nil, totalDelay: Double? = nil, lastErrorKind: Kind? = nil,
        trustFailure: String? = nil, configurationError: String? = nil, detail: String? = nil
    ) {
        self.kind = kind
        self.status = status
        self.body = body
        self.urlErrorCode = urlErrorCode
        self.apiError = apiError
        self.retryError = retryError
        self.attempts = attempts
        self.totalDelay = totalDelay
        self.lastErrorKind = lastErrorKind
        self.trustFailure = trustFailure
        self.configurationError = configurationError
        self.detail = detail
    }

    /// The differences between this expectation and an actual outcome, one line each; empty when it matches.
    public func mismatches(against actual: Outcome) -> [String] {
        var lines: [String] = []
        func compare<T: Equatable>(_ name: String, _ expected: T?, _ actual: T?) {
            guard let expected else { return }
            if expected != actual { lines.append("\(name): expected \(expected), got \(actual.map { "\($0)" } ?? "nothing")") }
        }
        if kind != actual.kind { lines.append("kind: expected \(kind.rawValue), got \(actual.kind.rawValue)") }
        compare("status", status, actual.status)
        compare("body", body, actual.body)
        if let urlErrorCode, urlErrorCode != actual.urlErrorCode,
            !(actual.urlErrorCode.map { alsoAcceptedURLErrorCodes?.contains($0) ?? false } ?? false)
        {
            lines.append(
                "urlError: expected \(URLErrorName.describe(urlErrorCode)), got \(actual.urlErrorCode.map(URLErrorName.describe) ?? "nothing")"
            )
        }
        compare("apiError", apiError, actual.apiError)
        compare("retryError", retryError, actual.retryError)
        compare("attempts", attempts, actual.attempts)
        if let totalDelay, abs(totalDelay - (actual.totalDelay ?? .infinity)) > 1e-6 {
            lines.append("totalDelay: expected \(totalDelay), got \(actual.totalDelay.map { "\($0)" } ?? "nothing")")
        }
        compare("lastErrorKind", lastErrorKind?.rawValue, actual.lastErrorKind?.rawValue)
        compare("trustFailure", trustFailure, actual.trustFailure)
        compare("configurationError", configurationError, actual.configurationError)
        return lines
    }

    public var description: String {
        var parts = [kind.rawValue]
        if let status { parts.append("status \(status)") }
        if let urlErrorCode {
            let alternatives = (alsoAcceptedURLErrorCodes ?? []).map { " or \(URLErrorName.describe($0))" }.joined()
            parts.append("URLError \(URLErrorName.describe(urlErrorCode))\(alternatives)")
        }
        if let apiError { parts.append("apiError \(apiError)") }
        if let retryError { parts.append("retryError \(retryError)") }
        if let attempts { parts.append("\(attempts) attempts") }
        if let totalDelay { parts.append("totalDelay \(totalDelay)") }
        if let lastErrorKind { parts.append("last \(lastErrorKind.rawValue)") }
        if let trustFailure { parts.append("trust \(trustFailure)") }
        if let configurationError { parts.append("error \(configurationError)") }
        if let body { parts.append("body \(body.debugDescription)") }
        return parts.joined(separator: ", ")
    }
}

extension Outcome {
    private enum CodingKeys: String, CodingKey {
        case kind, status, body, bodyLength, bodySHA256, urlErrorCode, alsoAcceptedURLErrorCodes, apiError, retryError
        case attempts, totalDelay, lastErrorKind, trustFailure, configurationError, detail
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try container.decode(Kind.self, forKey: .kind))
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        bodyLength = try container.decodeIfPresent(Int.self, forKey: .bodyLength)
        bodySHA256 = try container.decodeIfPresent(String.self, forKey: .bodySHA256)
        urlErrorCode = try container.decodeIfPresent(Int.self, forKey: .urlErrorCode)
        alsoAcceptedURLErrorCodes = try container.decodeIfPresent([Int].self, forKey: .alsoAcceptedURLErrorCodes)
        apiError = try container.decodeIfPresent(String.self, forKey: .apiError)
        retryError = try container.decodeIfPresent(String.self, forKey: .retryError)
        attempts = try container.decodeIfPresent(Int.self, forKey: .attempts)
        totalDelay = try container.decodeIfPresent(Double.self, forKey: .totalDelay)
        lastErrorKind = try container.decodeIfPresent(Kind.self, forKey: .lastErrorKind)
        trustFailure = try container.decodeIfPresent(String.self, forKey: .trustFailure)
        configurationError = try container.decodeIfPresent(String.self, forKey: .configurationError)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(status, forKey: .status)
        if let body, body.utf8.count > Self.largeBody {
            try container.encode(body.utf8.count, forKey: .bodyLength)
            try container.encode(SHA256.hex(body.utf8), forKey: .bodySHA256)
        } else {
            try container.encodeIfPresent(body, forKey: .body)
            try container.encodeIfPresent(bodyLength, forKey: .bodyLength)
            try container.encodeIfPresent(bodySHA256, forKey: .bodySHA256)
        }
        try container.encodeIfPresent(urlErrorCode, forKey: .urlErrorCode)
        try container.encodeIfPresent(alsoAcceptedURLErrorCodes, forKey: .alsoAcceptedURLErrorCodes)
        try container.encodeIfPresent(apiError, forKey: .apiError)
        try container.encodeIfPresent(retryError, forKey: .retryError)
        try container.encodeIfPresent(attempts, forKey: .attempts)
        try container.encodeIfPresent(totalDelay, forKey: .totalDelay)
        try container.encodeIfPresent(lastErrorKind, forKey: .lastErrorKind)
        try container.encodeIfPresent(trustFailure, forKey: .trustFailure)
        try container.encodeIfPresent(configurationError, forKey: .configurationError)
        try container.encodeIfPresent(detail, forKey: .detail)
    }
}
