package gonumlp

// ForceDualLP makes s take its duals from the dual LP only, so that tests
// exercise that route even when the basis route would succeed.
func ForceDualLP(s *Solver) { s.forceDualLP = true }
