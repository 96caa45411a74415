import CRawCurl
import Foundation

func libcurl(_ plan: Plan) -> Outcome {
    var latencies = [Double](repeating: 0, count: plan.count)
    let result = latencies.withUnsafeMutableBufferPointer {
        crawcurl_run(
            plan.url.absoluteString, plan.cafile, plan.count, plan.warmup, Int32(plan.inflight), plan.close ? 1 : 0,
            plan.resumes ? 1 : 0, plan.http2 ? 1 : 0,
            plan.clientCertificate?.chain, plan.clientCertificate?.key, plan.seconds, $0.baseAddress)
    }
    return Outcome(completed: result.completed, failures: result.failures, bytes: Int(result.bytes), seconds: result.seconds,
        latencies: Array(latencies.prefix(result.completed)))
}
