module zarfstate/bench/peers/go_json

go 1.19
