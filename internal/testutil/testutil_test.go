package testutil

import "testing"

func TestClpIsUsable(t *testing.T) {
	s := Clp(t)
	if s.Name() != "clp" {
		t.Errorf("Name() = %q, want clp", s.Name())
	}
}
