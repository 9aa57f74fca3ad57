//! Tests of the core kinds, by kind, with cases from kube's `validation_test.go`.
