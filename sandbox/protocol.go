package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"strconv"
)

// The host-guest protocol is described in harness/harness.py. The host writes
// the whole submission to the harness's stdin and closes it; the harness
// answers with frames on stdout, each marked with a nonce the host drew for
// this run. Bytes that are not a well-formed frame with the run's nonce are
// learner output written straight to file descriptor 1.

const frameMark = 0x1e

// newNonce returns 32 random hex digits.
func newNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// buildStdin encodes a submission for the harness. limit is the number of
// characters the harness keeps of each case's stdout and stderr.
func buildStdin(nonce string, limit int, code string, stdins []string) []byte {
	var b bytes.Buffer
	b.WriteString("LEARN1 ")
	b.WriteString(nonce)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(limit))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(len(stdins)))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(len(code)))
	for _, s := range stdins {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(len(s)))
	}
	b.WriteByte('\n')
	b.WriteString(code)
	for _, s := range stdins {
		b.WriteString(s)
	}
	return b.Bytes()
}

// doneFrame is the frame the harness writes last, after every case.
func doneFrame(nonce string) []byte {
	return []byte("\x1e" + nonce + " -1 done 0\n")
}

// caseStatus is how the harness says one case ended.
type caseStatus string

const (
	statusOK     caseStatus = "ok"     // the code ran to its end
	statusExit   caseStatus = "exit"   // the code raised SystemExit
	statusError  caseStatus = "error"  // an uncaught exception
	statusMemory caseStatus = "memory" // MemoryError
)

// guestCase is what the guest reported for one case.
type guestCase struct {
	Started, Ended bool
	Status         caseStatus
	ExitCode       int
	Stdout, Stderr []byte
	Traceback      string
	StdoutCut      bool
	StderrCut      bool
	Stray          []byte // bytes written straight to fd 1 during the case
	// MCP mode: the server's JSON-RPC response to the host's request, and
	// the transcript the learner's own Client recorded (case 0 only).
	Response    []byte
	HasResponse bool
	Transcript  []byte
}

// transcript is everything the guest reported for one run.
type transcript struct {
	Syntax string // a syntax error: the code never ran
	Cases  []guestCase
	Done   bool // the harness finished every case
	// OutOfTurn counts frames with the run's nonce that came out of turn
	// (a case out of order, or after it ended). The harness never writes
	// one, so any is a forgery.
	OutOfTurn int
}

// parseFrames reads the guest's stdout. Only frames with nonce count; any
// other bytes are attributed to the case running at the time as stray
// output. Frames naming a case out of range or out of order are ignored.
func parseFrames(stream []byte, nonce string, ncases int) transcript {
	tr := transcript{Cases: make([]guestCase, ncases)}
	prefix := append([]byte{frameMark}, nonce...)
	prefix = append(prefix, ' ')
	cur := -1
	stray := func(p []byte) {
		if cur >= 0 && cur < ncases && !tr.Cases[cur].Ended && len(p) > 0 {
			tr.Cases[cur].Stray = append(tr.Cases[cur].Stray, p...)
		}
	}
	for len(stream) > 0 {
		i := bytes.Index(stream, prefix)
		if i < 0 {
			stray(stream)
			break
		}
		stray(stream[:i])
		rest := stream[i+len(prefix):]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			stray(stream[i:])
			break
		}
		fields := bytes.Fields(rest[:nl])
		ok := len(fields) == 3
		var idx, n int
		var err1, err2 error
		if ok {
			idx, err1 = strconv.Atoi(string(fields[0]))
			n, err2 = strconv.Atoi(string(fields[2]))
			ok = err1 == nil && err2 == nil && n >= 0 && n <= len(rest)-nl-1
		}
		if !ok {
			stray(stream[i : i+len(prefix)])
			stream = rest
			continue
		}
		payload := rest[nl+1 : nl+1+n]
		stream = rest[nl+1+n:]
		kind := string(fields[1])
		switch {
		case idx == -1 && kind == "syntax":
			tr.Syntax = string(payload)
		case idx == -1 && kind == "done":
			tr.Done = true
		case idx < 0 || idx >= ncases:
			// Not a case of this run.
			tr.OutOfTurn++
		case kind == "start":
			if idx == cur+1 && (cur < 0 || tr.Cases[cur].Ended) {
				cur = idx
				tr.Cases[idx].Started = true
			} else {
				tr.OutOfTurn++
			}
		case idx != cur || tr.Cases[idx].Ended:
			// Out of turn.
			tr.OutOfTurn++
		case kind == "out":
			tr.Cases[idx].Stdout = append([]byte(nil), payload...)
		case kind == "err":
			tr.Cases[idx].Stderr = append([]byte(nil), payload...)
		case kind == "tb":
			tr.Cases[idx].Traceback = string(payload)
		case kind == "resp":
			tr.Cases[idx].Response = append([]byte(nil), payload...)
			tr.Cases[idx].HasResponse = true
		case kind == "trn":
			tr.Cases[idx].Transcript = append([]byte(nil), payload...)
		case kind == "end":
			f := bytes.Fields(payload)
			if len(f) != 4 {
				continue
			}
			c := &tr.Cases[idx]
			c.Ended = true
			c.Status = caseStatus(f[0])
			c.ExitCode, _ = strconv.Atoi(string(f[1]))
			c.StdoutCut = string(f[2]) == "1"
			c.StderrCut = string(f[3]) == "1"
		}
	}
	return tr
}
