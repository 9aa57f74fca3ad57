// W1 and W2 of benches/workqueue.rs, run on client-go's workqueue and on a plain Go
// channel, so `cargo bench --bench workqueue` can print our queue's throughput beside
// client-go's from the same run on the same machine.
//
// The workloads match the Rust bench: W1, 2 producers each adding 500,000 keys drawn
// round-robin from 10,000 distinct strings, copying the key per add; W2, 1 producer
// adding 1,000,000 distinct keys made before timing; 4 workers that Get and Done with
// no work; producers yield every WQ_BENCH_YIELD_EVERY adds (default 64), as the Rust
// producers do; the median of WQ_BENCH_RUNS runs (default 5) after one warm-up.
// WQ_BENCH_ONLY=W1/client-go runs one measurement alone. `cargo bench --bench scale`
// sets the sizes: WQ_BENCH_W1_KEYS distinct keys, WQ_BENCH_W1_ADDS_PER_PRODUCER adds per
// producer, WQ_BENCH_W2_KEYS keys (defaults as above).
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"
)

const (
	workers             = 4
	w1Producers         = 2
	defaultYieldEvery   = 64
	defaultRuns         = 5
	clientGo, goChannel = "client-go", "go-channel"
	setAlone            = "set-alone"
)

// The workloads' sizes, from the environment (see the top of this file).
var (
	w1AddsPerProducer = envInt("WQ_BENCH_W1_ADDS_PER_PRODUCER", 500_000)
	w1DistinctKeys    = envInt("WQ_BENCH_W1_KEYS", 10_000)
	w2Keys            = envInt("WQ_BENCH_W2_KEYS", 1_000_000)
)

// producers returns the keys each producer adds, made before timing. W1's producers
// copy their key at each add, as the Rust bench clones a shared key per add; their
// lists of 500,000 shared strings also give the heap the size of a real controller's,
// so Go's garbage collector does not run every few megabytes of those copies (with
// only the 10,000 distinct keys live, client-go measured about 40% slower on W1).
func producers(workload string) [][]string {
	if workload == "W1" {
		distinct := make([]string, w1DistinctKeys)
		for n := range distinct {
			distinct[n] = fmt.Sprintf("default/object-%d", n)
		}
		out := make([][]string, w1Producers)
		for p := range out {
			out[p] = make([]string, w1AddsPerProducer)
			for n := range out[p] {
				out[p][n] = distinct[n%w1DistinctKeys]
			}
		}
		return out
	}
	keys := make([]string, w2Keys)
	for n := range keys {
		keys[n] = fmt.Sprintf("default/object-%d", n)
	}
	return [][]string{keys}
}

func adds(workload string) int {
	if workload == "W1" {
		return w1Producers * w1AddsPerProducer
	}
	return w2Keys
}

// produce adds every key of each producer from its own goroutine, copying W1's, and
// returns once all are added.
func produce(workload string, all [][]string, yieldEvery int, add func(string)) {
	copyKeys := workload == "W1"
	var done sync.WaitGroup
	for _, keys := range all {
		done.Add(1)
		go func(keys []string) {
			defer done.Done()
			for n, key := range keys {
				if copyKeys {
					key = strings.Clone(key)
				}
				add(key)
				if n%yieldEvery == 0 {
					runtime.Gosched()
				}
			}
		}(keys)
	}
	done.Wait()
}

// startWorkers runs work on each worker's goroutine; the group says when all returned.
func startWorkers(work func()) *sync.WaitGroup {
	var done sync.WaitGroup
	for i := 0; i < workers; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			work()
		}()
	}
	return &done
}

func runClientGo(workload string, all [][]string, yieldEvery int) time.Duration {
	queue := workqueue.NewTyped[string]()
	start := time.Now()
	workersDone := startWorkers(func() {
		for {
			key, shutdown := queue.Get()
			if shutdown {
				return
			}
			queue.Done(key)
		}
	})
	produce(workload, all, yieldEvery, queue.Add)
	queue.ShutDownWithDrain()
	workersDone.Wait()
	return time.Since(start)
}

// runChannel sends every key through one channel with room for all of them, the Go
// counterpart of the Rust bench's unbounded flume channel.
func runChannel(workload string, all [][]string, yieldEvery int) time.Duration {
	total := 0
	for _, keys := range all {
		total += len(keys)
	}
	channel := make(chan string, total)
	start := time.Now()
	workersDone := startWorkers(func() {
		for range channel {
		}
	})
	produce(workload, all, yieldEvery, func(key string) { channel <- key })
	close(channel)
	workersDone.Wait()
	return time.Since(start)
}

// runSetAlone is the set alone of the Rust bench's W1 floor, with client-go's own set
// (a map[string]struct{}) and queue (a slice): on one goroutine, every add of the
// producers in the order their turns interleave (YIELD_EVERY adds each in turn, each
// key copied), a key not in the set inserted and appended, then every key taken out
// in order. It holds every distinct key at once, as the Rust floor does.
func runSetAlone(all [][]string, yieldEvery int) time.Duration {
	set := map[string]struct{}{}
	var order []string
	start := time.Now()
	longest := 0
	for _, keys := range all {
		longest = max(longest, len(keys))
	}
	for from := 0; from < longest; from += yieldEvery {
		for _, keys := range all {
			for _, key := range keys[min(from, len(keys)):min(from+yieldEvery, len(keys))] {
				key = strings.Clone(key)
				if _, found := set[key]; !found {
					set[key] = struct{}{}
					order = append(order, key)
				}
			}
		}
	}
	for len(order) > 0 {
		key := order[0]
		order = order[1:]
		delete(set, key)
	}
	return time.Since(start)
}

func envInt(name string, fallback int) int {
	if value, err := strconv.Atoi(os.Getenv(name)); err == nil && value > 0 {
		return value
	}
	return fallback
}

func main() {
	runs := envInt("WQ_BENCH_RUNS", defaultRuns)
	yieldEvery := envInt("WQ_BENCH_YIELD_EVERY", defaultYieldEvery)
	only := os.Getenv("WQ_BENCH_ONLY")
	fmt.Fprintf(os.Stderr, "  client-go anchor: %s, GOMAXPROCS=%d\n", runtime.Version(), runtime.GOMAXPROCS(0))
	for _, workload := range []string{"W1", "W2"} {
		for _, impl := range []string{clientGo, goChannel, setAlone} {
			if impl == setAlone && (workload != "W1" || only == "") {
				continue // run only when asked for: WQ_BENCH_ONLY=W1/set-alone
			}
			if only != "" && only != workload+"/"+impl {
				continue
			}
			var times []time.Duration
			for run := 0; run <= runs; run++ {
				all := producers(workload)
				runtime.GC()
				var elapsed time.Duration
				if impl == clientGo {
					elapsed = runClientGo(workload, all, yieldEvery)
				} else if impl == setAlone {
					elapsed = runSetAlone(all, yieldEvery)
				} else {
					elapsed = runChannel(workload, all, yieldEvery)
				}
				fmt.Fprintf(os.Stderr, "  %s %s run %d: %v\n", workload, impl, run, elapsed)
				if run > 0 {
					times = append(times, elapsed)
				}
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			median := times[len(times)/2]
			fmt.Printf("bench=%s impl=%s adds_per_s=%.0f\n", workload, impl, float64(adds(workload))/median.Seconds())
		}
	}
}
