module zarf-state/tests/conformance

go 1.19
