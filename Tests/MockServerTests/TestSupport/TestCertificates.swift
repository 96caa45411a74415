import Foundation

/// A throwaway PKI made with the `openssl` CLI once per test process: root → intermediate → leaf for
/// `localhost`/`127.0.0.1`, a second leaf for `b.example.test`, a client certificate, and an unrelated root (with a
/// client certificate of its own) for "untrusted" cases.
enum TestCertificates {
    struct Files: Sendable {
        let directory: URL
        var root: String { path("root.pem") }
        var otherRoot: String { path("other-root.pem") }
        /// Leaf then intermediate.
        var servedChain: String { path("served.pem") }
        var leafKey: String { path("leaf.key") }
        /// The `b.example.test` leaf alone (an incomplete chain, on purpose).
        var otherLeafOnly: String { path("b-leaf.pem") }
        var otherLeafKey: String { path("b-leaf.key") }
        var leafCertificate: String { path("leaf.pem") }
        var intermediate: String { path("inter.pem") }
        /// A client certificate (EKU clientAuth) then the intermediate; its key.
        var clientChain: String { path("client-chain.pem") }
        var clientKey: String { path("client.key") }
        /// A client certificate issued by the other root.
        var otherClient: String { path("other-client.pem") }
        var otherClientKey: String { path("other-client.key") }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    }

    static let shared: Files = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockserver-tests-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
            set -e
            cat > ext.cnf <<'CNF'
            [ca]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            [inter]
            basicConstraints = critical, CA:TRUE, pathlen:0
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            [leaf]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:localhost, IP:127.0.0.1
            [client]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = clientAuth
            [bleaf]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:b.example.test
            CNF
            key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
            key root.key; key inter.key; key leaf.key; key b-leaf.key; key other-root.key; key client.key; key other-client.key
            openssl req -x509 -new -key root.key -subj "/CN=MockServer Test Root" -days 30 -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out root.pem
            openssl req -x509 -new -key other-root.key -subj "/CN=MockServer Other Root" -days 30 -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out other-root.pem
            openssl req -new -key inter.key -subj "/CN=MockServer Test Intermediate" -out inter.csr
            openssl x509 -req -in inter.csr -CA root.pem -CAkey root.key -CAcreateserial -days 30 -extfile ext.cnf -extensions inter -out inter.pem 2>/dev/null
            openssl req -new -key leaf.key -subj "/CN=localhost" -out leaf.csr
            openssl x509 -req -in leaf.csr -CA inter.pem -CAkey inter.key -CAcreateserial -days 30 -extfile ext.cnf -extensions leaf -out leaf.pem 2>/dev/null
            openssl req -new -key b-leaf.key -subj "/CN=b.example.test" -out b-leaf.csr
            openssl x509 -req -in b-leaf.csr -CA inter.pem -CAkey inter.key -CAcreateserial -days 30 -extfile ext.cnf -extensions bleaf -out b-leaf.pem 2>/dev/null
            cat leaf.pem inter.pem > served.pem
            openssl req -new -key client.key -subj "/CN=MockServer Test Client" -out client.csr
            openssl x509 -req -in client.csr -CA inter.pem -CAkey inter.key -CAcreateserial -days 30 -extfile ext.cnf -extensions client -out client.pem 2>/dev/null
            cat client.pem inter.pem > client-chain.pem
            openssl req -new -key other-client.key -subj "/CN=MockServer Other Client" -out other-client.csr
            openssl x509 -req -in other-client.csr -CA other-root.pem -CAkey other-root.key -CAcreateserial -days 30 -extfile ext.cnf -extensions client -out other-client.pem 2>/dev/null
            openssl verify -CAfile root.pem -untrusted inter.pem leaf.pem >/dev/null
            """
        let result = TestProcess.run("/bin/sh", ["-c", script], directory: directory)
        precondition(result.status == 0, "certificate generation failed: \(result.stderr)")
        return Files(directory: directory)
    }()
}
