package replay

import (
	"bytes"
	"testing"

	"github.com/dlsched/dlsched/schedule"
)

// FuzzVerify: any schedule the JSON reader accepts is verified or refused
// with an error; Verify never panics, and its size guard and event budget
// keep every run small.
func FuzzVerify(f *testing.F) {
	for _, s := range goodSchedules(&testing.T{}) {
		var b bytes.Buffer
		s.WriteJSON(&b)
		f.Add(b.Bytes())
	}
	f.Add([]byte(`{"problem":{"topology":"tree","p":2,"h":3,"S":1,"C":1,"A":1,"D":"inf","V":1},"chunks":[{"stage":1,"layer":3,"load":1,"start":0}]}`))
	f.Add([]byte(`{"problem":{"topology":"binomial","p":1,"h":2,"S":1,"C":1,"A":1,"D":2,"V":3},"chunks":[{"stage":1,"layer":2,"load":1,"start":0},{"stage":1,"layer":1,"load":1,"start":5}]}`))
	f.Add([]byte(`{"problem":{"topology":"star","m":1000000000,"S":1,"C":1,"A":1,"D":"inf","V":1},"chunks":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := schedule.ReadJSON(bytes.NewReader(b))
		if err != nil {
			return
		}
		v, err := Verify(s, Options{MaxBytes: 64 << 20, MaxEvents: 200_000})
		if err == nil && v == nil {
			t.Fatal("no verdict and no error")
		}
	})
}
