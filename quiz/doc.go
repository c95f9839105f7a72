// Package quiz holds the learning loop's rules: the interactive widgets of a
// lesson and their grading, the end-of-lesson quiz, XP and levels, streaks,
// and the spaced-review schedule. Everything here is a pure function of its
// inputs and of the time it is given; the package imports no other package of
// the project. The application core (package progress) asks it for verdicts,
// XP and schedules, lessons asks it to decode blocks, and the storage layer
// keeps what the core records.
//
// # Widgets
//
// A lesson holds widgets as fenced markdown blocks whose info string names the
// widget and whose body is YAML. The lessons package parses the body into a
// yaml.Node and calls Decode, which is strict (an unknown key, such as a
// misspelt hint, is an error that lists the valid keys) and validates the
// result. Every Problem has a YAML path such as "questions[2].options", the
// line inside the body and a message that says what a valid value looks like.
//
// Ids (of widgets, items, categories, questions, options) are 1 to 64
// letters, digits, '-', '_' or '.', so they fit the page's inputs and XP keys.
//
// A classify block sorts failures into categories. Each item has its answer
// (a category id) and an explanation written for that item:
//
//	```classify
//	id: error-kinds
//	prompt: Which kind of error is each of these?
//	categories:
//	  - id: protocol
//	    label: Protocol error
//	  - id: execution
//	    label: Tool execution error
//	items:
//	  - id: unknown-tool
//	    text: The client calls a tool named "serch"; the server has no such tool.
//	    answer: protocol
//	    explanation: Finding the tool is the protocol's job, so the server answers with a JSON-RPC error (-32602) instead of a result.
//	  - id: bad-date
//	    text: The tool is called with the date "31/02/2026" and cannot parse it.
//	    answer: execution
//	    explanation: The tool ran and met bad input; since 2025-11-25 that is a result with isError true, which the model can read and correct.
//	```
//
// An annotate block lists tools; for each the author gives the expected value
// of the four hints and why. readOnlyHint and openWorldHint are always
// required; destructiveHint and idempotentHint may be left out of a read-only
// tool, where they do not matter and any answer is accepted:
//
//	```annotate
//	id: annotate-tools
//	prompt: Set the four hints for each tool.
//	tools:
//	  - name: search_issues
//	    description: Searches the public issue tracker and returns matching issues.
//	    hints:
//	      readOnlyHint:
//	        value: true
//	        explanation: It only reads issues; nothing changes.
//	      openWorldHint:
//	        value: true
//	        explanation: The tracker is a service on the internet, full of other people's text.
//	  - name: remember_fact
//	    description: Stores a fact in the server's local memory, replacing any fact with the same key.
//	    hints:
//	      readOnlyHint:
//	        value: false
//	        explanation: It writes to the memory store.
//	      destructiveHint:
//	        value: true
//	        explanation: A fact with the same key is overwritten.
//	      idempotentHint:
//	        value: true
//	        explanation: Storing the same fact under the same key twice leaves the store as after the first call.
//	      openWorldHint:
//	        value: false
//	        explanation: A local memory store is a closed world.
//	```
//
// A quiz block ends the lesson. pass (default 5, as in "5 of 6") must lie
// between 1 and the number of questions; xp defaults to 50; shuffle asks for
// a per-learner, per-attempt question order (see Order); shuffle_options
// (default false, so older quizzes keep their option order) asks for a
// per-attempt option order too, in which an option with pin: true keeps its
// place. With shuffle_options on, an option whose text points at the others
// ("all of the above", "none of these") must be pinned. Question kinds: single (exactly
// one correct option; kind may be left out), multiple (one or more correct
// options, the learner must choose exactly those), classify (one item against
// categories, with one explanation) and annotate (one tool's hints, an
// explanation per hint). Every option carries an explanation, shown after the
// attempt:
//
//	```quiz
//	id: quiz
//	pass: 3
//	xp: 50
//	shuffle: true
//	questions:
//	  - id: is-error
//	    kind: single
//	    prompt: How does a tool report that its upstream API is down?
//	    options:
//	      - id: a
//	        text: A JSON-RPC error with code -32603
//	        explanation: That is a protocol error; the model would rarely see it or recover.
//	      - id: b
//	        text: A result with isError set to true and a message
//	        correct: true
//	        explanation: The tool ran and failed, so the failure belongs in the result, where the model can act on it.
//	  - id: protocol-codes
//	    kind: multiple
//	    prompt: Which of these are protocol errors?
//	    options:
//	      - id: a
//	        text: The body is not valid JSON
//	        correct: true
//	        explanation: A parse error (-32700) is about the request itself.
//	      - id: b
//	        text: The method is unknown
//	        correct: true
//	        explanation: Method not found (-32601) is a protocol error.
//	      - id: c
//	        text: The weather service times out
//	        explanation: The tool ran and met an upstream failure, which makes it an execution error.
//	  - id: expired-handle
//	    kind: classify
//	    prompt: Which kind of error?
//	    text: A call passes a session handle that expired an hour ago.
//	    categories:
//	      - id: protocol
//	        label: Protocol error
//	      - id: execution
//	        label: Tool execution error
//	    answer: execution
//	    explanation: The model can recover by opening a new session, so the tool says so in an isError result.
//	  - id: delete-file
//	    kind: annotate
//	    prompt: Set the hints for this tool.
//	    tool:
//	      name: delete_file
//	      description: Deletes a file from the project folder.
//	      hints:
//	        readOnlyHint: {value: false, explanation: Deleting changes the folder.}
//	        destructiveHint: {value: true, explanation: The file is gone.}
//	        idempotentHint: {value: true, explanation: Deleting it again changes nothing more.}
//	        openWorldHint: {value: false, explanation: The project folder is a closed world.}
//	```
//
// # Variants
//
// Each question is a slot that may hold variants: other versions of the
// same question, listed under variants. A variant is a whole question; its
// id defaults to the slot's id with ".v2", ".v3", … appended and its kind
// to the slot's; it has no variants of its own. A variant must be as hard
// as its slot: the same kind, for single and multiple the same number of
// options, and for classify the same number of categories (Validate
// reports a variant that differs). Files without
// variants or shuffle_options read as before. A full example:
//
//	```quiz
//	id: quiz
//	pass: 2
//	shuffle: true
//	shuffle_options: true
//	questions:
//	  - id: upstream-down
//	    kind: single
//	    prompt: How does a tool report that its upstream API is down?
//	    options:
//	      - id: a
//	        text: A JSON-RPC error with code -32603
//	        explanation: That is a protocol error; the model would rarely see it or recover.
//	      - id: b
//	        text: A result with isError set to true and a message
//	        correct: true
//	        explanation: The tool ran and failed, so the failure belongs in the result.
//	      - id: c
//	        text: None of the above
//	        pin: true
//	        explanation: One of the above is right.
//	    variants:
//	      - prompt: A tool's payment provider declines a card. How is that reported?
//	        options:
//	          - id: a
//	            text: A result with isError true that says the card was declined
//	            correct: true
//	            explanation: A business failure the model can explain to the user.
//	          - id: b
//	            text: A -32602 protocol error
//	            explanation: The call was well formed; nothing is wrong with its params.
//	          - id: c
//	            text: None of the above
//	            pin: true
//	            explanation: One of the above is right.
//	      - id: upstream-down-timeout
//	        prompt: The weather service times out. What does the tool send back?
//	        options:
//	          - id: a
//	            text: A result with isError true that suggests trying again shortly
//	            correct: true
//	            explanation: A passing failure in the tool's own work goes in the result.
//	          - id: b
//	            text: Nothing, until the service answers
//	            explanation: A client needs an answer; it should not have to guess.
//	          - id: c
//	            text: None of the above
//	            pin: true
//	            explanation: One of the above is right.
//	  - id: expired-handle
//	    kind: classify
//	    prompt: Which kind of error?
//	    text: A call passes a session handle that expired an hour ago.
//	    categories:
//	      - {id: protocol, label: Protocol error}
//	      - {id: execution, label: Tool execution error}
//	    answer: execution
//	    explanation: The model can open a new session, so the tool says so in an isError result.
//	```
//
// # Attempts: draw, refuse, grade, show
//
// One attempt is a Draw, a pure function of the quiz, the learner id and
// the attempt number (DrawFor): the slot order (Order), the version of each
// slot (consecutive attempts always show another version, and a learner
// meets every version before one returns) and each option order. ViewDraw
// renders it with form field names taken from the slot ids, so they do not
// change with the version. A post is first checked with CheckComplete: an
// incomplete one is refused with an *IncompleteError whose message names
// the unanswered questions by number and prompt and reveals nothing else.
// Classify and Annotate have the same CheckComplete. GradeDraw then grades
// the versions shown. Until the quiz is passed the learner sees
// QuizResult.Shown, which is Redact: which questions were wrong and, for a
// wrong question, only the options the learner chose with their
// explanations (for a classify question, the why_not of the category
// chosen), and for an annotate question which hints are off, each with its
// cue; never a right key. Once passed, and in spaced review, the whole
// feedback shows.
//
// # Feedback that teaches
//
// A classify item may say, per wrong category, why the item does not fit
// it (ClassifyItem.WhyNot, or Category.WhyNot for every item); a learner
// who chooses that category reads it, and not the right one. Each hint of
// an annotate tool may carry a cue (HintKey.Cue), a plain question that
// leads to the value without saying it (one naming true or false is
// refused); Hint.Cue stands in where the author wrote none. A tool not
// right yet says which of its hints are off, each with its cue, and which
// are right, but no expected value and no explanation: a reason may tell
// the value of another hint. An annotate block may carry a thinking prompt
// (Annotate.Think). MissingWhyNot and MissingCues list the gaps, which
// learn check reports as warnings.
//
// # Keys never reach the page
//
// Each widget has a View method returning a struct with the prompt, items,
// choices, tool names and descriptions and hint defaults, and no field for an
// answer or an explanation: pages are rendered from views, so a key cannot
// leak. Grading (GradeClassify, GradeAnnotate, GradeDraw,
// GradeQuestion) takes the widget and the learner's answers and returns
// feedback with, for every item, hint or question, right or wrong, the
// right answer and the explanation; Redact and Shown cut it to what may be
// shown before a pass. Unanswered is wrong, with a message saying so, but
// callers refuse incomplete posts first (CheckComplete).
//
// # XP, levels and streaks
//
// The XP rule: every action earns at most once, and review earns at most
// a fixed amount a day.
//
//   - A lesson quiz earns its XP once, on the first pass (QuizAward): its
//     xp (DefaultQuizXP, 50, when unset) on a first try, a fifth less for
//     each failed attempt before the pass, never below two fifths
//     (QuizPassXP: 50, 40, 30, then 20).
//   - A classify or annotate widget earns WidgetXP (5) once, on its first
//     fully correct check (WidgetAward).
//   - An exercise earns its xp once, on its first solving submission
//     (ExerciseAward).
//   - A correct answer to a review card that is due earns ReviewXP (2)
//     (ReviewAward). A card earns at most once per scheduled interval: the
//     answer moves it past now, a doubled post changes nothing, and a card
//     already in review keeps its schedule when its item is missed again
//     in a widget or quiz (missing it cannot make it due again). Review XP
//     is capped per learner and local day at ReviewCardsPerDay answers,
//     ReviewDailyCapXP (20) XP.
//
// Every Award has a Key unique per thing earned, so the store's ledger grants
// it once however often it is posted; the day's review awards take one of
// ReviewCardsPerDay numbered keys (Award.Slots), so the cap is a unique key
// too. A learner's XP is therefore at most the course's earnable XP (the
// quizzes', widgets' and exercises' XP) plus ReviewDailyCapXP for each local
// date they answered reviews on. Level maps total XP to a level.
// Streak and Calendar place activities on days in the learner's zone; see
// Streak for the rule when the zone changes.
//
// # Spaced review
//
// Every missed quiz question, classify item and annotate tool becomes a review
// card (MissedCard). Cards are scheduled with FSRS-6 and its default
// parameters, desired retention 0.9 (see Scheduler). A correct review answer
// rates Good and a wrong one Again.
package quiz
