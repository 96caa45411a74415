// `import Conformance` is the whole suite: the model and runner, the catalogue and the reports are modules of their own
// (docs/public-api.md), re-exported here so that a subject's code needs one import.
@_exported import ConformanceCatalogue
@_exported import ConformanceModel
@_exported import ConformanceReports
