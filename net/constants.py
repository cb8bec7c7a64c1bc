"""Every number and name the wire protocol and its plumbing agree on, in one place.

Changing anything marked *wire* changes what other Parlour installations see: bump
``PROTOCOL_VERSION`` when you do, and update docs/protocol.md.
"""

from __future__ import annotations

# -- protocol -------------------------------------------------------------------------

#: *wire* Exchanged in the first frame of every connection and in the mDNS TXT record.
#: Peers with different versions refuse to talk, with a message saying who should update.
#: 2: the host's heartbeat carries its head's hash, "skip" entries, privacy and
#: re-admission checks (parlour-trust/2). 3: the players carry a table on when its host
#: is gone for good ("takeover" entries, "roster", "standby" and "origin"). 4: under the
#: mental-poker deal a played card's proof is signed inside its move (the action body's
#: optional "mental"), not sent as an envelope of its own. 5: an entry message's private
#: view is only what the peer's view adds to the public one (``State.private_view``),
#: not the whole view again; a "mental-deal" that is not the table's first deal of its
#: hand number carries a fresh "attempt" (a rematch, a hand dealt again after a
#: takeover), and a takeover keeps the mental deal. 6: the host's "error" refusing a
#: peer's signed message (a move, a deal message) names it by its signature
#: ("refuses"), so that the peer matches a refusal to the move it answers. 7: a takeover
#: needs the standings of a majority of the table's players; the host may hand the table
#: to a player on leaving ("handover", and the takeover entry's optional "handover"); a
#: standby answers a standing with "follow" (another player carries the table on) or
#: "declined"; a "join" may name the table whose log the peer holds. 8: a player's proven
#: cheat under the private deal forfeits the hand: a "hand_end" carrying the verdict
#: ("forfeit") and no state hash, its result a "forfeit" too, instead of a "mental-restart"
#: for "cheat" (a peer names the host for one received live; one in a catch-up still reads).
#: 9: a standing is held to its player's own signed moves: the takeover entry carries the
#: proof of what a player whose standing says less held (its optional "held"), and never
#: goes back past the end of a hand its successor holds; a standby's "hosting" and
#: "follow" carry the takeover entry ("took", in place of "seq"), which a player checks
#: before it follows and the departed host before it believes its table was carried on.
#: 10: the host signs what it sends each seat with an entry (the entry message's "sent"),
#: and a player whose client stops at an alert sends the others its signed "report".
#: 11: table talk: "talk" (a person's signed message, reaction or the host's mute, relayed
#: by the host beside the log, never in it) and "talk_refused" (net.trust.talk).
#: 12: the table entry says the protocol that opened the table ("version"), so that a
#: player catching up reads an old ruling (a "mental-restart" for "cheat") only in a log
#: that may be that old; a forfeit ends the hand where the log has reached, every logged
#: move counted on public knowledge; the host refuses a deal message that does not fit
#: the deal, and checks each share batch as it is logged once the cards are dealt.
#: 13: watchers — a "join" may ask to watch ("watch"), answered "joined" with no seat and
#: the log's public part only; the host tells every link who watches ("watchers"); a
#: player may show its own hand to a watcher end to end ("show" to the host, relayed as
#: "shown": sealed with crypto_box from its key to the watcher's).
#: 14: under the mental-poker deal every "mental-shuffle" carries its proof ("proof",
#: checked before any decryption share is published) and a "mental-deal" says so
#: ("proven"); a log written before still reads, and no share of its unproven deals is
#: ever published.
#: 15: watchers talk — a watcher's "talk" is checked and relayed as anyone's, and a client
#: takes a speaker the host's last "watchers" named (a 14 client refuses it, naming the host).
#: 16: the mental-poker deal's group is secp256k1 (libsecp256k1 through coincurve), not
#: edwards25519: a point is its 33-byte compressed encoding, a scalar 32 bytes big-endian
#: below n; cards and generators are hashed to the curve by try-and-increment. A saved
#: table whose unfinished hand was dealt under an older group has that hand dealt again.
PROTOCOL_VERSION = 16

# -- identity -------------------------------------------------------------------------

APP_NAME = "Parlour"
#: Overrides the data directory (tests, portable installs, several identities on one
#: machine).
HOME_ENV = "PARLOUR_HOME"
KEY_FILE = "identity.key"          # PEM PKCS#8 Ed25519 private key, mode 0600
PROFILE_FILE = "identity.json"     # display name (and the public key, for people)
KNOWN_HOSTS_FILE = "known_hosts.json"  # trust-on-first-use host fingerprints
#: Bytes of SHA-256(raw public key) shown as the fingerprint: 8 bytes = 16 hex digits,
#: read aloud as four groups of four.
FINGERPRINT_BYTES = 8
MAX_NAME_CHARS = 40

# -- framing --------------------------------------------------------------------------

#: *wire* Frame header: body length as an unsigned 32-bit big-endian integer.
LENGTH_BYTES = 4
#: *wire* Largest frame body either side accepts. A whole hand's log suffix fits many
#: times over; anything bigger is a bug or an attack, refused before it is read.
MAX_FRAME = 256 * 1024
# Container limits handed to msgpack: far above anything Parlour sends, far below what
# a 256 KiB frame could otherwise make the decoder allocate.
MAX_ARRAY_LEN = 4096
MAX_MAP_LEN = 512
#: Nesting deeper than this is refused (our messages are a few levels deep).
MAX_DEPTH = 16

# -- transport ------------------------------------------------------------------------

#: *wire* Random bytes the host sends for the client to sign.
CHALLENGE_BYTES = 32
#: *wire* Domain separation for the client's handshake signature, so it can never be
#: confused with a signature over a game action or a log entry.
AUTH_CONTEXT = b"parlour/auth/v1\x00"
#: Seconds a peer gets to finish the TLS and Parlour handshakes before it is dropped.
HANDSHAKE_TIMEOUT = 10.0
#: Seconds we wait for a polite TLS close before just dropping the socket.
CLOSE_TIMEOUT = 1.0
#: Bytes asyncio's TLS layer reads at a time. Its default, 256 KiB, is a buffer every TLS
#: connection allocates up front: ~280 KiB per idle connection in all. A TLS record
#: holds at most 16 KiB, so reading 16 KiB at a time costs nothing in speed and leaves
#: ~40 KiB per idle connection (measured by ``python -m net.tools.bench_flood``).
TLS_READ_BUFFER = 16 * 1024
#: Port a host listens on when the user has not chosen one (0 = any free port; the
#: port travels in the mDNS SRV record, and the join-by-address dialog shows it).
DEFAULT_PORT = 0

# -- discovery ------------------------------------------------------------------------

#: *wire* DNS-SD service type.
SERVICE_TYPE = "_parlour._tcp.local."
#: *wire* Record TTL in seconds. zeroconf's default for PTR/TXT is 75 minutes; two
#: minutes is the RFC 6762 host-record figure and costs a home network nothing. It does
#: not decide how long a crashed host's table stays in a lobby: python-zeroconf's browser
#: keeps a PTR record at least 1125 s (its ``_DNS_PTR_MIN_TTL``) whatever it says, so the
#: lobby asks the host itself (``ANSWER_CHECK_*`` below).
RECORD_TTL = 120
#: *wire* TXT keys.
TXT_PROTOCOL = "protocol"
TXT_GAME = "game"
TXT_RULESET = "ruleset"
TXT_MODE = "mode"
TXT_TABLE = "table"
TXT_TABLE_ID = "tid"  # the table's id: a table carried on by a new host keeps it
TXT_WATCH = "watch"  # "1": people may watch the table (room for one more), "0": not
TXT_HOST = "host"
TXT_FINGERPRINT = "fp"
TXT_SEATS = "seats"
TXT_STATE = "state"
STATE_LOBBY = "lobby"
STATE_IN_GAME = "in-game"
#: A TXT string is at most 255 bytes including "key="; names are cut to fit well under.
MAX_TXT_VALUE_BYTES = 120
#: Seconds to wait for a table's SRV/TXT/A records after its PTR shows up (they normally
#: arrive in the same packet, from the cache).
RESOLVE_TIMEOUT_MS = 1500
#: Target: a new table appears in other lobbies within this many seconds (asserted in
#: tests/net/test_discovery.py, measured by ``python -m net.tools.bench_discovery``).
APPEAR_WITHIN = 1.5

#: The lobby checks that each table it lists answers (a TCP connection to its port,
#: closed at once: net/sessions/answering.py) every ``ANSWER_CHECK_EVERY`` seconds, and
#: ``ANSWER_CHECK_AGAIN`` seconds after a miss (refused, or no answer within
#: ``ANSWER_CHECK_TIMEOUT``); ``ANSWER_MISSES`` misses in a row and the row says "not
#: answering" (it cannot be joined), ``ANSWER_FORGET_AFTER`` seconds so and it leaves the
#: list. A killed host's table is greyed within about 4 s, a vanished computer's within 7.
ANSWER_CHECK_EVERY = 3.0
ANSWER_CHECK_AGAIN = 0.5
ANSWER_CHECK_TIMEOUT = 1.5
ANSWER_MISSES = 2
ANSWER_FORGET_AFTER = 30.0

# -- private test networks (net/tools/netns.py) ---------------------------------------------

#: Subnet for veth-connected test namespaces; exists only inside those namespaces.
TEST_SUBNET = "10.231.0.0/24"
NETNS_PREFIX = "plr"

# -- sessions, heartbeats and rejoin (net/wire/heartbeat.py, net/sessions/host_session.py) -----------

#: Seconds between heartbeats on an otherwise idle link (either side).
HEARTBEAT_INTERVAL = 1.0
#: Seconds of silence after which a link counts as dropped: with the ticker's quarter
#: interval this detects a drop within 5 s.
HEARTBEAT_TIMEOUT = 4.0
#: A guest's reconnection delays: from this, doubling, up to the cap.
BACKOFF_MIN = 0.05
BACKOFF_MAX = 2.0
#: The app's guests give up after this many failed reconnection attempts in a row
#: (with the backoff above, about a minute) and tell the person the host is gone;
#: before the first join, after 3. Headless peers keep trying.
RECONNECT_ATTEMPTS = 30
#: Seconds one connection attempt (TCP, TLS and the Parlour handshake) may take.
CONNECT_TIMEOUT = 5.0
#: Host option: seconds a dropped seat waits before a bot stands in for it.
STAND_IN_GRACE = 30.0
#: Seconds the host waits for a player's deal contribution (its "shuffle") before it
#: logs a "skip" entry and deals without it, as it does for a player who dropped.
CONTRIBUTION_DEADLINE = 10.0
#: Seconds the private deal waits for a player gone from it — every seat of its client
#: dropped, not back — before the hand goes on without them (dealt again, or, once the
#: cards are dealt, voided and dealt again). Their cards are locked with their key: only
#: their own client can open them, and it can come back to the same hand at any time (its
#: secrets derive from its key), so the table waits about as long as an app takes to be
#: restarted by hand. The host may deal again without them sooner, but not before
#: ``CONTRIBUTION_DEADLINE`` (the floor every peer checks), or keep waiting longer. A
#: client connected but silent in the deal keeps ``CONTRIBUTION_DEADLINE``.
DROP_WAIT = 60.0
#: The mental-poker deal (issue 13) is the default for a table of two humans or more: no
#: client, the host's included, learns another human's cards. A table with one human
#: keeps the seeded deal whatever this says (``HostAuthority``).
PRIVATE_DEAL = True
#: A peer raises a "contribution" alert at a skip that comes sooner than the deadline
#: minus this, on its own clock from when the commitment reached it live: room for the
#: commitment's own delivery, which the host's clock saw first.
CONTRIBUTION_SLACK = 2.0
#: Seconds of waiting for someone's shuffle before the table says so ("Waiting for
#: Dad's shuffle…"): a shuffle normally arrives in milliseconds.
SHUFFLE_NOTICE = 1.0
#: Seconds a restarted host waits for its peers to reconnect before logging them as
#: dropped (their randomness is then waived for the next deal).
RESTART_GRACE = 10.0
#: Seconds a host that is finishing waits for every peer to acknowledge the last entry.
END_GRACE = 10.0
#: Seconds a host leaving on purpose waits for every peer to hang up after its "end".
FAREWELL_GRACE = 1.0
#: Connections holding no seat (in their handshake, not yet joined, or strangers waiting
#: to be given a seat) a host keeps: in all, and from one source (an IPv4 address or an
#: IPv6 /64). Past either, the oldest of the busiest source is dropped to make room —
#: waiting strangers first — so a returning player always gets in (net/sessions/admission.py).
#: 64 × ~40 KiB bounds their memory to ~2.5 MiB and their descriptors far below any
#: desktop's limit.
MAX_UNSEATED = 64
MAX_UNSEATED_PER_SOURCE = 8
#: Seconds an authenticated stranger may wait for the host to give it a seat (a player
#: who lost their key, while the host person decides) before it is sent away.
UNSEATED_WAIT = 120.0
#: The app's first join gives up after this many seconds (every attempt included) and
#: says why; the person can Cancel sooner.
FIRST_JOIN_WITHIN = 5.0
#: The last table this installation held a seat at as a guest (net/sessions/last_table.py), in
#: the data directory next to the identity.
LAST_TABLE_FILE = "last_table.json"
#: The lobby checks that the last table still answers at its address this often, and
#: gives one check this long (a full Parlour handshake with the host's key pinned).
REJOIN_PROBE_EVERY = 3.0
REJOIN_PROBE_TIMEOUT = 2.0
#: Files a host keeps in its state directory.
HOST_LOG_FILE = "table.db"
HOST_META_FILE = "host.json"
# The game against the computer keeps its table (log and record) here in the data directory.
LOCAL_DIR = "local"
#: A guest's copy of each table's verified log (net/sessions/guest_log.py), under its
#: data directory.
GUEST_LOG_DIR = "tables"
#: Where a guest keeps the table it carries on after its host left (its log, its
#: record), under its data directory: resumed from there after a restart, as a host's.
CARRIED_ON_DIR = "carried-on"
#: A guest writes the entries it acknowledged to that copy this long after the first of
#: them, in one transaction: off a move's round trip, which the acknowledgement ends,
#: and not in the middle of the other peers' checks of the next move.
GUEST_LOG_DELAY = 0.1

# -- takeover (net/trust/takeover.py) ---------------------------------------------------------

#: Seconds the players wait, once their host's app is gone — its connection closed or
#: reset, its computer refusing new ones, as a crashed or killed app leaves it — before
#: they carry the table on. An app restarted within this is simply back (its table
#: restored from its log); later, it finds the table carried on and joins it as a guest.
TAKEOVER_AFTER_RESET = 2.5
#: Seconds the players wait after their host went silent (nothing heard from it for
#: ``HEARTBEAT_TIMEOUT``: a lid closed, the Wi-Fi gone) before they carry the table on.
#: A blip shorter than the heartbeat timeout is never noticed; one that ends within this
#: is a reconnection, as any.
TAKEOVER_AFTER_SILENCE = 1.5
#: Seconds the player who carries the table on waits for the standings of the players its
#: log says are connected (they noticed the host gone at about the same moment); short of
#: a majority it holds them for more up to ``TAKEOVER_RETRY`` (``Succession._hold``).
TAKEOVER_GATHER = 1.0
#: A takeover that found no majority of the players (a partition, or the others still
#: have the host) is tried again this often while the host stays away.
TAKEOVER_RETRY = 5.0
#: How often a guest tries its host again while a takeover is pending: a restarted
#: app is found before the players carry the table on.
TAKEOVER_PROBE = 0.25
#: Seconds a host handing the table over (``HostCore.hand_over``) waits for its guests to
#: go to the heir before it closes (they do within a fraction of a second).
HANDOVER_GRACE = 5.0

# -- watchers (net/sessions/watchers.py) -------------------------------------------------------

#: How many watchers a table takes by default (the host may change it, or turn watching
#: off): past it a watcher is refused, saying why.
MAX_WATCHERS = 8
#: The most a host lets one watcher's link hold unsent (messages queued because its
#: connection takes no more: it stopped reading). Past it the watcher is dropped — its
#: heartbeat may still come, but a link that is not read only grows. A whole log's sync
#: is a few dozen messages; a watcher reading along never holds more than a few.
WATCHER_BACKLOG = 256
#: The longest a new entry waits at the host for every player to hold it before it goes to
#: the watchers (players first: ``watchers.Watchers.publish``). A player slow to verify
#: (a shuffle's proofs on a busy computer) or stuck never holds the watchers back longer.
PLAYERS_FIRST = 0.5

# -- table talk (net.trust.talk) ------------------------------------------------------------

#: *wire* The longest message a person may say, in characters (Unicode code points).
TALK_MAX_CHARS = 200
#: *wire* At most this many messages (sayings and reactions) from one person ...
TALK_BURST = 5
#: *wire* ... within this many seconds, on each client's own clock as it receives them.
TALK_WINDOW = 10.0
#: *wire* The quick reactions, by the id that travels, and the words shown for each.
TALK_REACTIONS = {"well-played": "Well played", "oops": "Oops", "thinking": "Thinking\u2026",
                  "thumbs-up": "\U0001F44D"}
