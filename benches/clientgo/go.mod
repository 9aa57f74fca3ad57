// The client-go anchor of `cargo bench --bench workqueue`: client-go's workqueue on the
// same machine and workloads as ours. The bench builds it with `go build` in a copy under
// target/, with GOFLAGS=-mod=mod, so go.sum is written there, not here.
module wheelhouse.dev/benches/clientgo

go 1.23

require k8s.io/client-go v0.34.0
