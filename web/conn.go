package web

import (
	"context"
	"io"
	"net"
)

// One answer, one system call. net/http writes an answer's header into a
// 4 KiB connection buffer; a body larger than what is left fills the
// buffer, flushes it (one write to the socket) and sends the rest with a
// second write. On a lesson page (57 KB) each write costs about as much as
// the other, whatever its size: the kernel's work per call, not per byte,
// dominates on the machines learn runs on. A connection from
// OneWriteListener holds such a full-buffer flush for the moment it takes
// net/http to hand over the rest, and sends both with one vectored write
// (writev). It holds only while logRequests's recorder passes a write of at
// least a buffer's size down, and only a write of exactly a buffer's size:
// that is a flush in the middle of a write, so more bytes follow, in the
// same call or at the flush net/http makes when the handler returns.

// connBufferSize is the size of net/http's connection write buffer; a
// write of exactly this many bytes while a large write passes is the
// buffer flushed mid-way. If net/http changes it, nothing is held and
// TestOneWritePerPage says so.
const connBufferSize = 4 << 10

// OneWriteListener wraps ln so that each accepted connection sends an
// answer's header and large body with one system call. Serve with
// ConnContext set to ConnContext, so the handlers find the connection.
func OneWriteListener(ln net.Listener) net.Listener { return oneWriteListener{ln} }

type oneWriteListener struct{ net.Listener }

func (l oneWriteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &oneWriteConn{Conn: c}, nil
}

type connKey struct{}

// ConnContext is the http.Server ConnContext hook that lets the handlers
// of a connection from OneWriteListener reach it.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if oc, ok := c.(*oneWriteConn); ok {
		return context.WithValue(ctx, connKey{}, oc)
	}
	return ctx
}

// oneWriteFrom returns the request's connection when it came through
// OneWriteListener, else nil.
func oneWriteFrom(ctx context.Context) *oneWriteConn {
	c, _ := ctx.Value(connKey{}).(*oneWriteConn)
	return c
}

// oneWriteConn is a connection that can hold one full-buffer write and
// send it with the next. net/http writes to a connection from the
// goroutine serving it only, the one that runs its handlers, so the fields
// need no lock.
type oneWriteConn struct {
	net.Conn
	// holding is set while a large write passes through the recorder.
	holding bool
	// held is the flushed buffer waiting for the rest of the answer.
	held []byte
	// pieces and pending are writeHeld's writev: kept here, they cost no
	// allocation per answer.
	pieces  [2][]byte
	pending net.Buffers
}

func (c *oneWriteConn) Write(p []byte) (int, error) {
	if len(c.held) > 0 {
		return c.writeHeld(p)
	}
	if c.holding && len(p) == connBufferSize {
		c.held = append(c.held[:0], p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// writeHeld sends the held bytes and p with one vectored write.
func (c *oneWriteConn) writeHeld(p []byte) (int, error) {
	held := len(c.held)
	// WriteTo consumes pending; the pieces are cleared so p is not kept.
	c.pieces[0], c.pieces[1] = c.held, p
	c.pending = c.pieces[:]
	n, err := c.pending.WriteTo(c.Conn)
	c.pieces[0], c.pieces[1] = nil, nil
	c.held = c.held[:0]
	if n < int64(held) {
		return 0, err
	}
	return int(n) - held, err
}

// ReadFrom keeps the connection's own ReadFrom (sendfile, splice) for
// net/http's copies, after what it holds.
func (c *oneWriteConn) ReadFrom(r io.Reader) (int64, error) {
	if len(c.held) > 0 {
		if _, err := c.writeHeld(nil); err != nil {
			return 0, err
		}
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

// CloseWrite half-closes the connection as net/http does before closing
// it, after what it holds.
func (c *oneWriteConn) CloseWrite() error {
	if len(c.held) > 0 {
		if _, err := c.writeHeld(nil); err != nil {
			return err
		}
	}
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
