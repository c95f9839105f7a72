package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The host-guest protocol is described in harness/harness.py. The host
// writes the header and the code, then each case's input only when that
// case's turn comes: the first with the code, each later one once the frames
// show the case before it ended. So code running in one case can never read
// a later case's input, not even from the harness's memory. The harness
// answers with frames on stdout, each marked with a nonce the host drew for
// this run. Bytes that are not a well-formed frame with the run's nonce are
// learner output written straight to file descriptor 1.

const frameMark = 0x1e

// maxFrameHeader bounds the header line of a frame; a longer one is output.
const maxFrameHeader = 64

// newNonce returns 32 random hex digits.
func newNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// buildStdin encodes a submission for the harness: the part written at once
// (header, code and the first case's input) and the inputs of the later
// cases, each to be written when its case's turn comes. limit is the number
// of characters the harness keeps of each case's stdout and stderr.
func buildStdin(nonce string, limit int, code string, stdins []string) (first []byte, later [][]byte) {
	var b bytes.Buffer
	b.WriteString("LEARN2 ")
	b.WriteString(nonce)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(limit))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(len(stdins)))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(len(code)))
	b.WriteByte('\n')
	b.WriteString(code)
	for i, s := range stdins {
		if i == 0 {
			b.Write(inputChunk([]byte(s)))
			continue
		}
		later = append(later, inputChunk([]byte(s)))
	}
	return b.Bytes(), later
}

// inputChunk frames one case's input: its length on a line, then the bytes.
func inputChunk(p []byte) []byte {
	out := make([]byte, 0, len(p)+12)
	out = strconv.AppendInt(out, int64(len(p)), 10)
	out = append(out, '\n')
	return append(out, p...)
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

// The kinds of frame a case has at most once, as bits of frameParser.seen.
const (
	seenOut uint8 = 1 << iota
	seenErr
	seenTB
	seenResp
	seenTrn
)

// transcript is everything the guest reported for one run.
type transcript struct {
	Syntax string // a syntax error: the code never ran
	Cases  []guestCase
	Done   bool // the harness finished every case
	// OutOfTurn counts frames with the run's nonce that came out of turn
	// (a case out of order, after it ended, or a second frame of one kind
	// in a case). The harness never writes one, so any is a forgery.
	OutOfTurn int
}

// parseFrames reads the guest's whole stdout. Only frames with nonce count;
// any other bytes are attributed to the case running at the time as stray
// output. Frames naming a case out of range or out of order are ignored and
// counted in OutOfTurn.
func parseFrames(stream []byte, nonce string, ncases int) transcript {
	p := newFrameParser(nonce, ncases, true)
	p.write(stream)
	return p.finish()
}

// frameParser reads the guest's stdout as it arrives, in any pieces, and
// builds the transcript. The engine runs one (without keeping payloads) to
// know when a case has ended and the next one may have its input; the host
// runs another over the whole stream. Both decide turns the same way.
type frameParser struct {
	prefix []byte
	buf    []byte // bytes not yet decided: a partial frame or prefix
	keep   bool   // keep payloads and stray output
	cur    int
	tr     transcript
	// seen marks, per case, the kinds of frame it has had (seenOut, …):
	// the harness writes each at most once a case, so a second is forged.
	seen []uint8
}

func newFrameParser(nonce string, ncases int, keep bool) *frameParser {
	prefix := append([]byte{frameMark}, nonce...)
	return &frameParser{prefix: append(prefix, ' '), keep: keep, cur: -1, tr: transcript{Cases: make([]guestCase, ncases)}, seen: make([]uint8, ncases)}
}

// ended reports whether case i has ended, in turn.
func (p *frameParser) ended(i int) bool { return i < len(p.tr.Cases) && p.tr.Cases[i].Ended }

func (p *frameParser) stray(b []byte) {
	c := p.cur
	if !p.keep || c < 0 || c >= len(p.tr.Cases) || p.tr.Cases[c].Ended || len(b) == 0 {
		return
	}
	p.tr.Cases[c].Stray = append(p.tr.Cases[c].Stray, b...)
}

// write parses b, holding back only a frame (or a prefix) still incomplete.
func (p *frameParser) write(b []byte) {
	p.buf = append(p.buf, b...)
	n := p.parse(false)
	rest := copy(p.buf, p.buf[n:])
	p.buf = p.buf[:rest]
}

// finish parses what is left, taking an incomplete frame as output, and
// returns the transcript.
func (p *frameParser) finish() transcript {
	p.parse(true)
	p.buf = nil
	// A forged frame's length may cut a character in two; what the report
	// quotes is text, so every broken sequence becomes U+FFFD.
	p.tr.Syntax = strings.ToValidUTF8(p.tr.Syntax, "\uFFFD")
	for i := range p.tr.Cases {
		c := &p.tr.Cases[i]
		c.Stdout, c.Stderr, c.Stray = validText(c.Stdout), validText(c.Stderr), validText(c.Stray)
		c.Traceback = strings.ToValidUTF8(c.Traceback, "\uFFFD")
	}
	return p.tr
}

// validText returns b, or a copy with every invalid UTF-8 sequence
// replaced by U+FFFD.
func validText(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, []byte("\uFFFD"))
}

// parse consumes p.buf and returns how many bytes it decided. At the end of
// the stream (final) every byte is decided.
func (p *frameParser) parse(final bool) int {
	stream := p.buf
	used := 0
	for len(stream) > 0 {
		i := bytes.Index(stream, p.prefix)
		if i < 0 {
			keepBack := 0
			if !final {
				// The stream may end inside a prefix.
				keepBack = min(len(stream), len(p.prefix)-1)
				for keepBack > 0 && !bytes.HasPrefix(p.prefix, stream[len(stream)-keepBack:]) {
					keepBack--
				}
			}
			p.stray(stream[:len(stream)-keepBack])
			return used + len(stream) - keepBack
		}
		p.stray(stream[:i])
		used += i
		stream = stream[i:]
		rest := stream[len(p.prefix):]
		nl := bytes.IndexByte(rest[:min(len(rest), maxFrameHeader)], '\n')
		if nl < 0 && !final && len(rest) < maxFrameHeader {
			return used // the header is still arriving
		}
		var idx, n int
		ok := nl >= 0
		if ok {
			fields := bytes.Fields(rest[:nl])
			ok = len(fields) == 3
			var err1, err2 error
			if ok {
				idx, err1 = strconv.Atoi(string(fields[0]))
				n, err2 = strconv.Atoi(string(fields[2]))
				ok = err1 == nil && err2 == nil && n >= 0
			}
			if ok && n > len(rest)-nl-1 {
				if !final {
					return used // the payload is still arriving
				}
				ok = false
			}
			if ok {
				p.frame(idx, string(fields[1]), rest[nl+1:nl+1+n])
				adv := len(p.prefix) + nl + 1 + n
				used += adv
				stream = stream[adv:]
				continue
			}
		}
		p.stray(stream[:len(p.prefix)])
		used += len(p.prefix)
		stream = rest
	}
	return used
}

// once marks that case idx has had a frame of the kind bit; a second one
// counts as out of turn (the harness writes each kind once a case, so
// learner code wrote one of its own in the case's turn). The later frame
// still replaces the earlier, as the harness's own comes last.
func (p *frameParser) once(idx int, bit uint8) {
	if p.seen[idx]&bit != 0 {
		p.tr.OutOfTurn++
	}
	p.seen[idx] |= bit
}

// frame applies one well-formed frame.
func (p *frameParser) frame(idx int, kind string, payload []byte) {
	tr := &p.tr
	ncases := len(tr.Cases)
	clone := func(b []byte) []byte {
		if !p.keep {
			return nil
		}
		return append([]byte(nil), b...)
	}
	switch {
	case idx == -1 && kind == "syntax":
		// The harness reports a syntax error before any case starts.
		if p.cur >= 0 {
			tr.OutOfTurn++
			return
		}
		tr.Syntax = string(clone(payload))
	case idx == -1 && kind == "done":
		tr.Done = true
	case idx < 0 || idx >= ncases:
		// Not a case of this run.
		tr.OutOfTurn++
	case kind == "start":
		if idx == p.cur+1 && (p.cur < 0 || tr.Cases[p.cur].Ended) {
			p.cur = idx
			tr.Cases[idx].Started = true
		} else {
			tr.OutOfTurn++
		}
	case idx != p.cur || tr.Cases[idx].Ended:
		// Out of turn.
		tr.OutOfTurn++
	case kind == "out":
		p.once(idx, seenOut)
		tr.Cases[idx].Stdout = clone(payload)
	case kind == "err":
		p.once(idx, seenErr)
		tr.Cases[idx].Stderr = clone(payload)
	case kind == "tb":
		p.once(idx, seenTB)
		tr.Cases[idx].Traceback = string(clone(payload))
	case kind == "resp":
		p.once(idx, seenResp)
		tr.Cases[idx].Response = clone(payload)
		tr.Cases[idx].HasResponse = len(payload) > 0
	case kind == "trn":
		p.once(idx, seenTrn)
		tr.Cases[idx].Transcript = clone(payload)
	case kind == "end":
		f := bytes.Fields(payload)
		if len(f) != 4 {
			return
		}
		c := &tr.Cases[idx]
		c.Ended = true
		c.Status = caseStatus(f[0])
		c.ExitCode, _ = strconv.Atoi(string(f[1]))
		c.StdoutCut = string(f[2]) == "1"
		c.StderrCut = string(f[3]) == "1"
	}
}
