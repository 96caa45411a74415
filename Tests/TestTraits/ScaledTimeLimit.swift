import Foundation
import Testing

extension Trait where Self == TimeLimitTrait {
    /// A time limit of `minutes`, times `TEST_TIME_LIMIT_SCALE` when the environment sets it.
    ///
    /// A limit catches a hang, not slowness. `Scripts/test` sets 2: on a loaded 2-core machine the tests' TLS servers
    /// and clients, which all decode keys through OpenSSL 3 (one global lock), stalled a run past a minute at times.
    /// `Scripts/sanitize` sets 6: under ThreadSanitizer or AddressSanitizer every test runs several times slower.
    public static func scaledTimeLimit(minutes: Int) -> Self {
        let scale = ProcessInfo.processInfo.environment["TEST_TIME_LIMIT_SCALE"].flatMap(Int.init) ?? 1
        return .timeLimit(.minutes(minutes * max(1, scale)))
    }
}
