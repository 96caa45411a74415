import Conformance

// The conformance suite against the NIO stack: `swift run -c release --package-path NIOStack nio-conformance run`,
// with the main command's arguments.
ConformanceCommandLine.main(subject: NIOSubject())
