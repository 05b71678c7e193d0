// Prints "<raw spelling>\t<json.Marshal of the float64 it decodes to>" for
// edge cases and pseudo-random doubles of every magnitude.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strconv"
)

func main() {
	raws := []string{"9223372036854775807", "12345678901234567890", "9007199254740993", "1e20", "1e21",
		"123456789012345678", "0.000001", "0.0000001", "1.5e-7", "5e-324", "1.7976931348623157e308",
		"100", "100.0", "1e2", "0.1", "-0.0", "123.456", "99999999999999999999", "1e-6", "9.999999999999999e20",
		"4.35e15", "18446744073709551615", "-9223372036854775808", "2.5e-5", "1234567.0000001"}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 300; i++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		raws = append(raws, strconv.FormatFloat(f, 'g', -1, 64))
	}
	for e := -12; e <= 25; e++ {
		f := r.Float64() * math.Pow(10, float64(e))
		raws = append(raws, strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'e', 20, 64))
	}
	for _, raw := range raws {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			panic(err)
		}
		out, _ := json.Marshal(v)
		fmt.Printf("%s\t%s\n", raw, out)
	}
}
