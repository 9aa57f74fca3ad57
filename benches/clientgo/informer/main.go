// The client-go anchor of `cargo bench --bench scale`: a shared informer on Pods
// listing and watching the API server at the URL given, reporting its time to sync and
// the heap bytes it holds per Pod, so the bench can print them beside our informer's
// from the same run on the same server.
//
// Usage: informer <server URL> <namespace> <expected Pods>. The informer keeps each
// Pod as decoded (managedFields included: client-go applies no transform unless the
// caller sets one), from JSON (a clientset's default content type). Heap bytes are
// runtime.MemStats.HeapAlloc after a forced GC, synced minus before start, over the
// Pods stored: live bytes, as the Rust bench counts them.
//
// It uses only APIs client-go has had for years (clientset, informer factory,
// WaitForCacheSync), so it builds against the vendored client-go of any recent
// Kubernetes source tree as well as against the module go.mod names.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// quiet is how long the watch must have been idle before the heap is read, as the
// Rust bench waits.
const quiet = 300 * time.Millisecond

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return stats.HeapAlloc
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: informer <server URL> <namespace> <expected Pods>")
		os.Exit(2)
	}
	url, namespace := os.Args[1], os.Args[2]
	expected, err := strconv.Atoi(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, "expected Pods:", err)
		os.Exit(2)
	}
	client, err := kubernetes.NewForConfig(&rest.Config{Host: url, QPS: 1000, Burst: 1000})
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
	before := heapAfterGC()
	start := time.Now()
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(namespace))
	informer := factory.Core().V1().Pods().Informer()
	stop := make(chan struct{})
	factory.Start(stop)
	if !cache.WaitForCacheSync(stop, informer.HasSynced) {
		fmt.Fprintln(os.Stderr, "the informer did not sync")
		os.Exit(1)
	}
	sync := time.Since(start)
	time.Sleep(quiet)
	after := heapAfterGC()
	stored := len(informer.GetStore().ListKeys())
	if stored != expected {
		fmt.Fprintf(os.Stderr, "the informer synced %d Pods, not %d\n", stored, expected)
		os.Exit(1)
	}
	fmt.Printf("objects=%d sync_ms=%.1f bytes_per_object=%.0f\n",
		stored, float64(sync.Microseconds())/1000, (float64(after)-float64(before))/float64(stored))
	close(stop)
}
