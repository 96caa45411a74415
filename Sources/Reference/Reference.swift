// The reference stack re-exports the spec's types and the pinning handlers, so `import Reference` is all a user
// needs.
@_exported import NetworkCore
@_exported import Pinning
