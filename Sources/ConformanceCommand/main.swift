import Conformance
import FoundationSubject
import ReferenceConformance

// The project's own `conformance` command is the library's command line with its two subjects: the reference
// stack (the default) and Foundation's URLSession. A third party's executable is the same line with its own.
ConformanceCommandLine.main(subjects: [("reference", ReferenceSubject()), ("foundation", FoundationURLSessionSubject())])
