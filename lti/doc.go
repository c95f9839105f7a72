// Package lti is learn's side of LTI 1.3 (1EdTech LTI Core 1.3 and
// Security Framework 1.0): the registered platforms, the OIDC third-party
// initiated login, the validation of the id_token a platform posts back,
// learn's own signing keys and their public key set.
//
// A launch has two legs. Login takes the platform's login initiation
// (iss, login_hint, target_link_uri, lti_message_hint, client_id,
// lti_deployment_id), keeps a fresh state and nonce in the Store (the
// state's SHA-256 only, bound to the SHA-256 of a random value the browser
// holds in a cookie) and answers the address of the platform's
// authorisation endpoint to redirect to. Launch takes the id_token and
// state the platform posts to the redirect address: the state is taken
// from the Store (deleted as it is read, so it serves once on whichever
// server finishes the launch), and the token is checked in a fixed order,
// each check a Refusal that names what failed and what to change in the
// LMS's registration.
//
// Tokens are verified with go-jose (github.com/go-jose/go-jose/v4): its
// parser takes the list of accepted algorithms, here RS256 alone, so
// "alg": "none" and HMAC tokens signed with a public key never reach a
// verification. Platforms' key sets are fetched with a timeout and a size
// cap, cached, and fetched again once when a token names a key id the
// cached set lacks (KeySets).
//
// Decisions, and why:
//
//   - go-jose rather than golang-jwt: one well-kept library (no
//     dependencies of its own) holds JWS, JWK sets with RFC 7638
//     thumbprints (learn's key ids) and JWT claims with string-or-array
//     audiences, which LTI needs all of; deep-linking responses and the
//     services' client assertions are signed with it too. Its parser
//     refuses every algorithm not listed before any key is chosen, so no
//     key callback has to remember to refuse HMAC.
//   - The state is kept hashed and deleted as it is read (DELETE …
//     RETURNING), and nonces are recorded under a primary key until their
//     token expires, so a replay fails on every server sharing the
//     database; a state is also bound to the browser (the hash of a
//     SameSite=None cookie), so a state sent to another browser is
//     useless.
//   - An unknown key id fetches the platform's set again at most once per
//     DefaultMinRefetch, so made-up key ids cannot make learn hammer the
//     LMS; a real rotation is found at the first launch after it.
//   - learn's own signing keys are RSA 2048 in the database (table
//     lti_keys) rather than in the settings table of the cookie keys: they
//     are key pairs with ids, and several are published at once during
//     the key grace period.
//
// The package holds no SQL and imports neither web nor storage: the
// Store is declared here and implemented by package storage. What a
// launch means for learn (a class, a teacher, a member) is the core's
// (progress.Service.LaunchLTI); Launch only says who launched from where.
//
// Grade passback (Assignment and Grade Services 2.0). A launch's AGS
// endpoint claim (Launched.AGS) names the resource link's line item; the
// core keeps it per learner, platform and link, and an award earned in
// the lesson queues the lesson's score (XP earned of the lesson's
// earnable XP, Completed once the lesson is) in the award's own
// transaction, into an outbox in the database: one row per learner and
// line item, holding the newest score only. A Sender, one per server,
// claims due rows with a lease, posts each to <line item>/scores with a
// bearer token from Tokens, and records the answer: sent; pending again
// after Backoff on a network error, 408, 429 or 5xx; failed on another
// refusal (tried again with the learner's next score). Tokens come from
// the platform's token endpoint by the client-credentials grant with a
// client assertion signed by learn's key (RFC 7523), cached per platform
// and scope until a minute before they expire.
//
//   - The outbox holds scores, not events: a newer score replaces the row
//     (compared by the award's time, so an older one never does), and
//     while a row is leased its newer score waits for the send in flight
//     to end, so no older score reaches the LMS after a newer one.
//   - Delivery is at least once: a server killed mid-send leaves its
//     lease to run out (ScoreLease) and the score is sent again, which the
//     LMS takes as the same score (same timestamp).
//   - Scores are posted for line items the platform created (a deep
//     linking response's or the LMS teacher's); learn does not create
//     line items through the line items service.
//
// Deep Linking 2.0. A launch whose message type is LtiDeepLinkingRequest
// passes the same checks as a resource link launch (but needs no resource
// link), and more: its deep_linking_settings claim must name an http(s)
// return address (https but on localhost) and take ltiResourceLink items,
// and only an instructor or an administrator may make it. Launched then
// holds a DeepLinking: the return address, the data to echo, whether
// several items are taken, the platform and deployment, a random id and
// an expiry (DeepLinkLifetime). DeepLinkResponse answers it with
// resource links: a JWT signed like the client assertions, iss learn's
// client id, aud the platform's issuer, each link with its custom
// parameters and the line item the platform makes for it.
//
//   - The request's id is spent in the nonce table (as "deep-link:<id>",
//     under the platform's issuer) when it is answered, so a request is
//     answered once on every server, with no table of its own: while the
//     instructor picks, the request waits in their browser, sealed by the
//     web layer, which is why its return address and data have caps
//     (MaxDeepLinkReturnURL, MaxDeepLinkData).
//   - Only resource links are sent, and only to learn's own origin.
//
// Launches in the LMS's frame (frame.go, and the web layer): FrameOrigins
// names the origins that may frame the pages a launch opens (the issuer,
// the authorisation endpoint and the launch presentation's return
// address); TokenPlatform and LoginPlatform find the platform a page must
// talk to before a launch is verified, for the platform's client-side
// storage (LTI Client Side postMessages) where the frame keeps no cookie;
// SpendOnce spends the single-use code that continues such a launch in a
// new tab, in the nonce table under the issuer "learn".
//
// Dynamic Registration 1.0 is in register.go.
//
// Rosters (Names and Role Provisioning Services 2.0, roster.go). A
// launch's namesroleservice claim (Launched.NRPS) names the course's
// membership container when it offers version 2.0 at an address CheckURL
// takes. Roster reads it for the core (progress.LMSRosters) with a bearer
// token of the contextmembership.readonly scope, following Link
// rel="next" pages on the first page's origin only, each page capped
// (MaxRosterPageBytes), at most MaxRosterPages pages and MaxRosterMembers
// members, a 401 fetching a new token once. Members the platform marks
// Deleted are left out, Inactive ones kept and marked; a member's name is
// their name, or their given and family names. Every failure is a
// RosterError a teacher can act on (never a token); the core keeps it as
// the roster's last problem and the roster read before stays.
//
//   - The core reads the roster when a launch names a roster service the
//     class has not used (the first instructor's launch, typically), with
//     LTIRosterWait, so a slow LMS slows that launch by at most 5 s and
//     never refuses it; a teacher reads it again from the class page, once
//     per LTIRosterUpdateEvery per class (each read costs the LMS).
//   - Members are matched to learners by issuer and subject (lti_users),
//     so a member is "started" once their first launch made their learner.
package lti
