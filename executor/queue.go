package executor

// FIFO is a slice-backed first-in first-out queue that reuses its storage.
// The zero value is an empty queue. Models use it for task queues and
// buffers that need no blocking (a Mailbox is the blocking counterpart).
type FIFO[T any] struct {
	buf []T
	hd  int
}

// Len returns the number of queued values.
func (q *FIFO[T]) Len() int { return len(q.buf) - q.hd }

// Push appends v at the tail.
func (q *FIFO[T]) Push(v T) {
	if q.hd > 0 && len(q.buf) == cap(q.buf) && q.hd >= len(q.buf)/2 {
		n := copy(q.buf, q.buf[q.hd:])
		clear(q.buf[n:])
		q.buf = q.buf[:n]
		q.hd = 0
	}
	q.buf = append(q.buf, v)
}

// Peek returns the head without removing it; the queue must not be empty.
func (q *FIFO[T]) Peek() T { return q.buf[q.hd] }

// Pop removes and returns the head; the queue must not be empty.
func (q *FIFO[T]) Pop() T {
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

// At returns the i-th queued value from the head (0 is the head).
func (q *FIFO[T]) At(i int) T { return q.buf[q.hd+i] }

// Clear empties the queue.
func (q *FIFO[T]) Clear() {
	clear(q.buf)
	q.buf = q.buf[:0]
	q.hd = 0
}

// pushFront inserts v at the head.
func (q *FIFO[T]) pushFront(v T) {
	if q.hd > 0 {
		q.hd--
		q.buf[q.hd] = v
		return
	}
	var zero T
	q.buf = append(q.buf, zero)
	copy(q.buf[1:], q.buf)
	q.buf[0] = v
}

// removeFromFIFO removes the first queued value for which match is true,
// keeping the order of the others, and reports whether it found one.
func removeFromFIFO[T any](q *FIFO[T], match func(T) bool) bool {
	for i := q.hd; i < len(q.buf); i++ {
		if match(q.buf[i]) {
			copy(q.buf[i:], q.buf[i+1:])
			var zero T
			q.buf[len(q.buf)-1] = zero
			q.buf = q.buf[:len(q.buf)-1]
			if q.hd == len(q.buf) {
				q.buf = q.buf[:0]
				q.hd = 0
			}
			return true
		}
	}
	return false
}
