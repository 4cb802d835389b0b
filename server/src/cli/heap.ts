// How the command line's old generation grows: as the language server's (protocol.ts serverNodeOptions, which
// test/cli/heap.test.ts holds this to), set by the CLI itself when it starts (cli/main.ts). `check` of a platform
// repository (kubeflow/manifests: 65 Kustomize roots, 12 Helm releases) peaks at about 410 MB instead of 500 MB, for
// about 10 % more CPU. The semi-space size is left to V8 here: set at run time it made no difference.

export const cliHeapFlags = '--heap-growing-percent=50';
