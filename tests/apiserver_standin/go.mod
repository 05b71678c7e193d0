module zarf-state/tests/apiserver_standin

go 1.19
