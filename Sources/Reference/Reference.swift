// The reference stack re-exports the spec's types, so `import Reference` is all a user needs.
@_exported import NetworkCore
