package lessons

import "fmt"

// widgetKinds are the info strings that name interactive blocks.
var widgetKinds = map[string]bool{"classify": true, "annotate": true, "quiz": true, "exercise": true}

// decodeWidget decodes the YAML body of a widget block that starts on line.
func decodeWidget(file, kind string, body []byte, line int) (*Widget, []Problem) {
	return nil, []Problem{{File: file, Line: line, Message: fmt.Sprintf("widget %q is not implemented yet: remove the block or turn it into a plain code block", kind)}}
}
