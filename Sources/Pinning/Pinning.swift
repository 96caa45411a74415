// The pinning handlers decide the spec's challenges, so their users need the spec's types: `import Pinning` is
// enough.
@_exported import NetworkCore
