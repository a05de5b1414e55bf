package executor

// fifo is a slice-backed FIFO queue that reuses its storage.
type fifo[T any] struct {
	buf []T
	hd  int
}

func (q *fifo[T]) len() int { return len(q.buf) - q.hd }

func (q *fifo[T]) push(v T) {
	if q.hd > 0 && len(q.buf) == cap(q.buf) && q.hd >= len(q.buf)/2 {
		n := copy(q.buf, q.buf[q.hd:])
		clear(q.buf[n:])
		q.buf = q.buf[:n]
		q.hd = 0
	}
	q.buf = append(q.buf, v)
}

func (q *fifo[T]) peek() T { return q.buf[q.hd] }

func (q *fifo[T]) pop() T {
	var zero T
	v := q.buf[q.hd]
	q.buf[q.hd] = zero
	q.hd++
	if q.hd == len(q.buf) {
		q.buf = q.buf[:0]
		q.hd = 0
	}
	return v
}
