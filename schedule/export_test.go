package schedule

// WithoutPresence returns a copy of s with the presence records that
// ReadJSON keeps cleared, for comparisons of values.
func WithoutPresence(s *Schedule) *Schedule {
	c := *s
	c.stated = 0
	c.Chunks = append([]Chunk(nil), s.Chunks...)
	for i := range c.Chunks {
		c.Chunks[i].stated = 0
		c.Chunks[i].Hops = append([]Hop(nil), c.Chunks[i].Hops...)
		for h := range c.Chunks[i].Hops {
			c.Chunks[i].Hops[h].stated = 0
		}
	}
	return &c
}
