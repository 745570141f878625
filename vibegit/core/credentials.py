"""What looks like a credential: the rules, the built-in
allowlist, fingerprints, decoding, streaming, and redaction of the state's
own text. Pure: text in, findings out (infra/secretscan.py decides what to
scan and reads it from git).

Each rule starts with a literal or a small character set and checks the
character before it in Python: a leading ``\\b`` or look-behind would turn
off the regex engine's fast prefix search (20-30x slower per MiB). The
rules, the allowlist and the numbers behind them are in docs/secrets.md.

Every pattern is a ``LazyPattern``: compiled when a scan first needs it. A
text the prefilters rule out never compiles a rule's own pattern, and
loading the rules costs no compiling (5 ms of a sync's start, before).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from enum import Enum

from vibegit.core.records import NamedTuple, fields, is_record, replace
from vibegit.core.text import LazyPattern, bad_char

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds at every start

if TYPE_CHECKING:  # the pre-push hook imports these rules: no state model at start-up
    from typing import Any, TypeVar

    from vibegit.core.model import Checkpoint

REDACTED = "[REDACTED]"
FINGERPRINT = LazyPattern(r"[0-9a-f]{20}\Z")


class Rule(NamedTuple):
    kind: str
    pattern: LazyPattern
    group: int  # the secret itself (0: the whole match); redacted and fingerprinted
    edge: str = ""  # characters that must not come right before the match ("" none)
    check: str = ""  # a further test of the value: "keyword", "url", "basic", "pem", "bearer", "b64pem", "mixed",
    # "random", "cli"
    # Prefilters, each exact (a text they rule out holds no match): the rule runs only when one of
    # ``needles`` is in the text, or ``gate`` is found in it (a regex led by a literal: the regex
    # engine's prefix search beats ``in`` for short needles); a match begins where one of
    # ``starts`` matches the lower-cased text, and the rule is tried only there.
    needles: tuple[str, ...] = ()
    gate: LazyPattern | None = None
    starts: tuple[tuple[LazyPattern, tuple[int, ...]], ...] = ()
    lines: bool = False  # a match is a line that holds what ``gate`` finds: tried only at such lines' starts
    family: str = ""  # rules gated together first (``_families``): one pass finds whether any of them may match


_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_WORD = _UPPER + "abcdefghijklmnopqrstuvwxyz_"
_TOKEN = _WORD + "-"
# A value assigned to a name: not starting with a quote, '$' (a variable) or a
# bracket; '$' is allowed inside (passwords have it). Stops at quotes,
# spaces and separators.
_FIRST = r"""[^\s"'`,;(){}\[\]<>$%\\]"""
_REST = r"""[^\s"'`,;(){}\[\]<>%\\]"""
_VALUE = rf"({_FIRST}{_REST}{{7,249}})"
_ASSIGN = r"""["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?"""  # what stands between a key-like name and its value

_SK = LazyPattern("k-(?<=sk-)")  # OpenAI's and Anthropic's keys; led by its rarer letter, as the gates below

RULES: tuple[Rule, ...] = (
    Rule(
        "private key",
        LazyPattern(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----([\s\S]*?)(?=-----END |\Z)"),
        1,
        check="pem",
        needles=("PRIVATE KEY",),
    ),
    Rule(
        "AWS access key id",
        LazyPattern(r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])"),
        0,
        _UPPER,
        gate=LazyPattern(r"A(?:KI|SI|BI|CC)A"),
        family="A",
    ),
    Rule(
        "GitHub token",
        LazyPattern(r"gh[pousr]_[A-Za-z0-9]{36,255}"),
        0,
        _WORD,
        gate=LazyPattern("gh[pousr]_"),
        family="g",
    ),
    Rule(
        "GitHub token", LazyPattern(r"github_pat_[A-Za-z0-9_]{22,255}"), 0, _WORD, needles=("github_pat_",), family="g"
    ),
    Rule(
        "GitLab token",
        LazyPattern(r"gl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_-]{20,64}"),
        0,
        _TOKEN,
        gate=LazyPattern("gl(?:pat|dt|rt|ptt|cbt|oas)-"),
        family="g",
    ),
    Rule("Slack token", LazyPattern(r"xox[abposr]-[A-Za-z0-9-]{10,250}"), 0, _WORD, gate=LazyPattern("xox[abposr]-")),
    Rule(
        "Slack webhook",
        LazyPattern(r"hooks\.slack\.com/(?:services|workflows)/T[A-Z0-9]{6,12}/[AB][A-Z0-9]{6,12}/[A-Za-z0-9]{16,}"),
        0,
        needles=("hooks.slack.com/",),
        family="h",
    ),
    Rule(
        "Stripe key", LazyPattern(r"[sr]k_live_[A-Za-z0-9]{20,250}"), 0, _WORD, gate=LazyPattern("k_live_"), family="k"
    ),
    Rule("Google API key", LazyPattern(r"AIza[0-9A-Za-z_-]{35}"), 0, _WORD, gate=LazyPattern("AIza"), family="A"),
    Rule(
        "OpenAI key",
        LazyPattern(
            r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,250}|[A-Za-z0-9_-]{16,250}T3BlbkFJ[A-Za-z0-9_-]{16,250})"
        ),
        0,
        _TOKEN,
        gate=_SK,
        family="k",
    ),
    Rule(
        "Anthropic key", LazyPattern(r"sk-ant-[a-z]{3,8}\d{2}-[A-Za-z0-9_-]{80,250}"), 0, _TOKEN, gate=_SK, family="k"
    ),
    Rule(
        "SendGrid key",
        LazyPattern(r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"),
        0,
        _TOKEN,
        gate=LazyPattern(r"SG\."),
        family="S",
    ),
    Rule("npm token", LazyPattern(r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), 0, _WORD, gate=LazyPattern("npm_")),
    Rule(
        "PyPI token",
        LazyPattern(r"pypi-AgE[A-Za-z0-9_-]{50,}"),
        0,
        _TOKEN,
        gate=LazyPattern("AgE(?<=pypi-AgE)"),
        family="A",
    ),
    Rule(
        "Azure storage key",
        LazyPattern(r"AccountKey=([A-Za-z0-9+/]{86}==)"),
        1,
        gate=LazyPattern("AccountKey="),
        family="A",
    ),
    Rule(
        "JSON web token",
        LazyPattern(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}"),
        0,
        _TOKEN,
        gate=LazyPattern("J(?<=eyJ)"),
    ),
    Rule(
        "Discord bot token",
        LazyPattern(r"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])"),
        0,
        _TOKEN,
        gate=LazyPattern(r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27}"),  # its middle part, found by the literal dot
    ),
    Rule(
        "base64 private key",  # kubeconfig's client-key-data, a Kubernetes secret's tls.key: a PEM key, base64
        LazyPattern(r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}"),
        0,
        _WORD + "+/",
        "b64pem",
        gate=LazyPattern("LS0tLS1CRUdJTi"),  # base64 of "-----BEGIN"
    ),
    Rule(
        "Hugging Face token",
        LazyPattern(r"hf_[A-Za-z]{34}(?![A-Za-z0-9_])"),
        0,
        _WORD,
        "mixed",
        gate=LazyPattern("hf_"),
        family="h",
    ),
    Rule(
        "Vault token",
        LazyPattern(r"hv[sbr]\.[A-Za-z0-9_-]{24,300}(?![A-Za-z0-9_-])"),
        0,
        _WORD + ".",
        "random",
        gate=LazyPattern(r"v[sbr]\.(?<=hv[sbr]\.)"),  # led by its rarer letter
    ),
    Rule(
        "Telegram bot token",
        LazyPattern(r"[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"),
        0,
        _WORD,
        gate=LazyPattern(r"AA(?<=:AA)[A-Za-z0-9_-]{33}"),  # the secret's start; the bot's id before it
        family="A",
    ),
    Rule(
        "Twilio API key",
        LazyPattern(r"SK[0-9a-f]{32}(?![0-9A-Za-z])"),
        0,
        _WORD,
        gate=LazyPattern("SK[0-9a-f]{32}"),
        family="S",
    ),
    Rule(
        "Twilio auth token",  # beside its account's id: Client("AC…", "…"), AC…:…
        LazyPattern(r"AC[0-9a-f]{32}[\"']?[ \t]*[,:][ \t]*[\"']?([0-9a-f]{32})(?![0-9A-Za-z])"),
        1,
        _WORD,
        gate=LazyPattern("AC[0-9a-f]{32}"),
        family="A",
    ),
    Rule(
        "bearer token",
        LazyPattern(r"Bearer[ \t]+([A-Za-z0-9._~+/-]{20,}=*)"),
        1,
        _WORD,
        "bearer",
        gate=LazyPattern("Bearer"),
        family="B",
    ),
    # scheme://user:password@host; the user may be empty (redis://:pw@host)
    Rule(
        "password in a URL",
        LazyPattern(r"://[^\s/:@\"'<>]{0,100}:([^\s/@\"'<>]{3,200})@[A-Za-z0-9\[]"),
        1,
        "",
        "url",
        gate=LazyPattern("://"),
        family=":",
    ),
    Rule(
        "netrc password",
        LazyPattern(r"machine\s+\S+(?:\s+login\s+\S+)?\s+password\s+(\S{4,})"),
        1,
        _WORD,
        needles=("machine",),
        family="m",
    ),
    Rule(
        "base64 user:password",
        LazyPattern(r"Basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})"),
        1,
        _WORD,
        "basic",
        gate=LazyPattern("Basic"),
        family="B",
    ),
    Rule(
        "base64 user:password",
        LazyPattern(r"\"auth\"[ \t]*:[ \t]*\"([A-Za-z0-9+/]{8,}={0,2})\""),
        1,
        "",
        "basic",
        gate=LazyPattern('"auth"'),
    ),
    Rule(
        "pgpass line",
        LazyPattern(r"(?m)^[A-Za-z0-9_.*-]+:(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:(\S{3,})$"),
        1,
        gate=LazyPattern(r":(?:\d{1,5}|\*):"),  # its port field, found by the literal colon
        family=":",
        lines=True,
    ),
    # passwords on command lines: curl -u user:pw (--user), sshpass -p pw, mysql -ppw (and its kin)
    Rule(
        "password in a curl command",
        LazyPattern(
            rf"curl[^\n|;&]{{0,400}}?[ \t](?:-u[ \t]*|--user[ \t=]+)[\"']?[^\s:\"']*:({_FIRST}[^\s\"']{{2,200}})"
        ),
        1,
        _WORD,
        "cli",
        needles=("curl",),
    ),
    Rule(
        "password in an sshpass command",
        LazyPattern(rf"sshpass(?:[ \t]+(?:-[fdP][ \t]*\S+|-[evhV]+))*[ \t]+-p[ \t]*[\"']?({_FIRST}[^\s\"']{{2,200}})"),
        1,
        _WORD,
        "cli",
        needles=("sshpass",),
    ),
    Rule(
        "password in a mysql command",
        LazyPattern(
            rf"(?:mysql(?:dump|admin|import|show|check|slap)?|mariadb(?:-dump|-admin)?)(?![\w-])"
            rf"[^\n|;&]{{0,300}}?[ \t]-p[\"']?({_FIRST}[^\s\"']{{2,200}})"
        ),
        1,
        _WORD,
        "cli",
        gate=LazyPattern("(?:mysql|mariadb)"),
        family="m",
    ),
    # a key-like name, a separator, a literal value: the name is checked in Python (_keyword_name)
    Rule(
        "secret assigned to a key-like name",
        LazyPattern(rf"(?i)(key|token|secret|passw(?:or)?d){_ASSIGN}{_VALUE}"),
        2,
        "",
        "keyword",
        # where a name can begin: found by a letter in it the text seldom holds, a separator and the
        # shortest value after it (the match is that part of the name only, so a name inside the value
        # before is found too), and the name's start that many characters before
        starts=(
            (LazyPattern(rf"k(?:ey|en)(?={_ASSIGN}{_FIRST}{_REST}{{7}})"), (0, 2)),  # key, to-ken
            (LazyPattern(rf"cret(?={_ASSIGN}{_FIRST}{_REST}{{7}})"), (2,)),  # se-cret
            (LazyPattern(rf"w(?:or)?d(?={_ASSIGN}{_FIRST}{_REST}{{7}})"), (4,)),  # pass-w(or)d
        ),
    ),
)

# -- the built-in allowlist: what is never a credential -----------------------------

_PLACEHOLDER = LazyPattern(
    r"(?i)^(?:x+|\*+|\.+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%\([^)]*\)s|changeme|change_me\w*|example\w*|your\w*|"
    r"redacted|none|null|true|false|dummy\w*|test\w*|placeholder|pass(?:word|wd)?\d*|pwd|secret|token|"
    r"tiger|foo|bar|baz|user)$"
    r"|xxxx|XXXX|\*\*\*|REDACTED|EXAMPLE|(?i:your[-_](?:api[-_]?)?(?:key|token|secret|password))"
)
_WORDS = LazyPattern(r"[A-Za-z]+(?: [A-Za-z]+)*[.?!]?\Z|[A-Za-z]+(?:[ \t]+\S+)+\Z")  # words, UI text, prose
_IDENT = LazyPattern(r"\+?[A-Za-z_][A-Za-z_.|:+-]*\Z")  # names, slugs, dotted paths without digits
_CODE = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")  # name or a.b.c
_PATH = LazyPattern(r"(?:~|\.{1,2})?/(?:[\w.-]+/)+[\w.-]+\.(?:pem|key|crt|cer|p12|pfx|jks|json|txt|der)\Z")
_SEQUENCES = ("0123456789" * 3, "abcdefghijklmnopqrstuvwxyz" * 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 2)
_SHAPELESS = ("url", "keyword", "basic", "bearer", "cli")  # found by where they stand, not by a known format
# Published example values (the jwt.io example token's signature).
_KNOWN_EXAMPLES = frozenset({"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"})


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def is_placeholder(value: str, check: str = "") -> bool:
    """A known non-credential: placeholders, documentation keys (…EXAMPLE…),
    demo credentials (user:pass, scott:tiger); and, for values found only by
    where they stand (a name, a URL, a header), words and prose, file paths,
    names without digits and sequences. A digit-less passphrase assigned by
    name goes through: the price of not flagging every word."""
    v = value.strip().strip("\"'")
    if not v or _PLACEHOLDER.search(v) or any(x in v for x in _KNOWN_EXAMPLES):
        return True
    if check in _SHAPELESS:
        return bool(_WORDS.match(v) or _PATH.match(v) or _IDENT.match(v)) or any(v in seq for seq in _SEQUENCES)
    return False


def _keyword_name(text: str, start: int, word: str) -> bool:
    """The whole name before the separator ends with a key-like word:
    ``*_KEY``/``*.key``/camelCase ``secretKey`` (not ``monkey``), any
    ``*TOKEN``, ``*SECRET``, ``*PASSWORD``, ``*PASSWD``, ``APIKEY``."""
    if word.lower() != "key":
        return True
    before = text[start - 1] if start > 0 else ""
    if before in ("_", ".", "-"):
        return True
    if word == "Key" and (before.islower() or before.isdigit()):
        return True  # camelCase: secretKey, apiKey, AccountKey
    return text[max(0, start - 3) : start].lower() == "api"  # apikey, APIKEY


_NAMED = LazyPattern(r"[A-Za-z]+(?:[_.:-](?:[A-Za-z]+|[vV]?[0-9]+))+\Z")  # user_id_2024_v2, created_at_desc_v3


def _literal(value: str, text: str, end: int, word: str = "") -> bool:
    """A literal, not words, repeated characters or code (a call, an
    attribute, a variable name) assigned to a key-like name; for a *key*
    (``primary_key``, ``SORT_KEY``), not a name made of words and numbers."""
    if entropy(value) < 3.0 or value.isalpha():
        return False
    if word.lower() == "key" and _NAMED.match(value):
        return False
    if text[end : end + 1] in ("(", ".", "["):
        return False
    return not (_CODE.match(value) and not any(c.isdigit() for c in value))


def _basic(value: str) -> bool:
    """base64 of ``user:password`` with a real-looking password."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    _, sep, password = raw.partition(":")
    return bool(sep) and len(password) >= 3 and raw.isprintable() and not is_placeholder(password, "url")


def _b64pem(value: str) -> bool:
    """base64 of a PEM private key (its first lines are enough)."""
    head = value[: len(value) // 4 * 4][:400]
    try:
        return b"PRIVATE KEY" in base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return False


def _url(text: str, start: int) -> bool:
    """``://`` stands after a scheme (letters, digits, ``+.-``, starting with a letter)."""
    i = start
    while i > 0 and i > start - 21 and (text[i - 1].isalnum() or text[i - 1] in "+.-"):
        i -= 1
    return i < start and text[i].isalpha()


_PEM_BODY = LazyPattern(r"[A-Za-z0-9+/]{20}")


def _passes(rule: Rule, match: re.Match[str], text: str) -> bool:
    value, check = match.group(rule.group), rule.check
    if check == "pem":
        return _PEM_BODY.search(value) is not None  # a header alone, or "...", is documentation
    if check == "keyword":
        word = match.group(1)
        shaped = _keyword_name(text, match.start(), word) and _literal(value, text, match.end(2), word)
    elif check == "url":
        shaped = _url(text, match.start())
    elif check == "basic":
        shaped = _basic(value)
    elif check == "bearer":
        shaped = entropy(value) >= 3.5 and not value.isalpha() and not value.isdigit()
    elif check == "b64pem":
        shaped = _b64pem(value)
    elif check == "mixed":  # random letters: both cases, more than a name has
        tail = value.rpartition("_")[2]
        shaped = sum(c.isupper() for c in tail) >= 3 and sum(c.islower() for c in tail) >= 3 and entropy(tail) >= 3.5
    elif check == "random":
        shaped = entropy(value.partition(".")[2]) >= 3.5
    else:
        shaped = True
    return shaped and not is_placeholder(value, check)


class Hit(NamedTuple):
    line: int
    kind: str
    start: int  # the secret's span in the text scanned
    end: int
    value: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.value)


def fingerprint(value: str) -> str:
    """What the allowlist records instead of the value: 80 bits of a hash of
    it (whitespace around it ignored). A hash of a weak password can be
    guessed by trying passwords: allow only what is not a credential."""
    import hashlib  # here: a scan that finds nothing never loads it (OpenSSL's, 2 ms)

    return hashlib.sha256(b"vibegit-secret\0" + value.strip().encode("utf-8", "surrogatepass")).hexdigest()[:20]


_FAMILIES: dict[str, re.Pattern[str]] = {}


def _families() -> dict[str, re.Pattern[str]]:
    """Each family's gate: its rules' prefilters (gates, needles) joined with
    ``|``, so it is found wherever one of them is: a text it is not in holds
    no match of any of them, whichever rules a family groups (each rule's
    own prefilter still runs after it). They share a first letter: the regex
    engine takes it out as the literal prefix it searches for, and one pass
    over a text tells whether any of the family may match. Compiled at the
    first scan (start-up pays nothing for them)."""
    members: dict[str, dict[str, None]] = {}
    for rule in RULES:
        if rule.family:
            if rule.gate is not None and (rule.gate.flags != re.UNICODE or rule.gate.groups):
                raise ValueError(f"{rule.kind}: a gate with flags or groups cannot join a family")  # a bug
            parts = [rule.gate.pattern] if rule.gate is not None else [re.escape(n) for n in rule.needles]
            members.setdefault(rule.family, {}).update(dict.fromkeys(parts))
    _FAMILIES.update((name, re.compile("|".join(parts))) for name, parts in members.items())
    return _FAMILIES


def find(text: str, first_line: int = 1) -> list[Hit]:
    """Every credential-like value in ``text``, by position (the first rule
    wins where two overlap); ``first_line`` numbers the text's first line."""
    found: list[tuple[int, int, int, str, str]] = []  # start, rule, end, kind, value
    lowered: str | None = None
    gated: dict[re.Pattern[str] | LazyPattern, bool] = {}
    families = _FAMILIES or _families()
    for index, rule in enumerate(RULES):
        if rule.family:
            family = families[rule.family]
            if family not in gated:  # searched once for all its rules
                gated[family] = family.search(text) is not None
            if not gated[family]:
                continue
        for needle in rule.needles:
            if needle in text:
                break
        else:
            if rule.needles:
                continue
        if rule.gate is not None:
            if rule.gate not in gated:  # a gate two rules share is searched once
                gated[rule.gate] = rule.gate.search(text) is not None
            if not gated[rule.gate]:
                continue
        if rule.starts:
            lowered = _lowered(text) if lowered is None else lowered
            matches = _matches_at(rule, text, lowered) if lowered else rule.pattern.finditer(text)
        elif rule.lines and rule.gate is not None:
            starts = sorted({text.rfind("\n", 0, g.start()) + 1 for g in rule.gate.finditer(text)})
            matches = _matches_from(rule, text, starts)
        else:
            matches = rule.pattern.finditer(text)
        for match in matches:
            start = match.start()
            if start > 0 and text[start - 1] in rule.edge and rule.edge:
                continue
            if _passes(rule, match, text):
                s, e = match.span(rule.group)
                found.append((s, index, e, rule.kind, match.group(rule.group)))
    found.sort()
    kept: list[tuple[int, int, int, str, str]] = []
    for hit in found:
        if kept and hit[0] < kept[-1][2]:  # overlaps the one before: the earlier rule wins
            if hit[1] < kept[-1][1]:
                kept[-1] = hit
            continue
        kept.append(hit)
    line, pos, out = first_line, 0, []
    for s, _, e, kind, value in kept:
        line += text.count("\n", pos, s)
        pos = s
        out.append(Hit(line, kind, s, e, value))
    return out


def _lowered(text: str) -> str:
    """``text`` lower-cased place for place, as a case-insensitive rule sees
    its letters (the long s is an s); "" when lower-casing moves places."""
    low = text.lower()
    return low.replace("\u017f", "s") if len(low) == len(text) else ""


def _matches_at(rule: Rule, text: str, lowered: str) -> Iterator[re.Match[str]]:
    """``rule.pattern.finditer(text)``, trying only where one of ``rule.starts`` matches ``lowered``."""
    places = {
        m.start() - b for start, backs in rule.starts for m in start.finditer(lowered) for b in backs if m.start() >= b
    }
    return _matches_from(rule, text, sorted(places))


def _matches_from(rule: Rule, text: str, places: list[int]) -> Iterator[re.Match[str]]:
    """``rule.pattern.finditer(text)`` when a match can begin only at ``places`` (ascending)."""
    end = 0
    for at in places:
        if at < end:
            continue
        match = rule.pattern.match(text, at)
        if match is not None:
            end = max(match.end(), match.start() + 1)
            yield match


def none_in(texts: list[str]) -> bool:
    """True when no text of ``texts`` holds a hit, found with one ``find`` of
    them all, a newline between each two (what costs per text is paid once).
    False may still mean none (a netrc entry split across two texts): then
    scan them one by one. Exact when True: a hit in a text alone is a hit, or
    overlaps one, in the whole. The newline stands where a text began or
    ended: a value that crosses it only grows (the private key's), no edge,
    name or code check tells it from a text's start or end, and a line starts
    after it and ends before it."""
    return not find("\n".join(texts))


def find_each(texts: list[str]) -> list[list[Hit]]:
    """``[find(t) for t in texts]``, with one ``none_in`` of them all first
    (exact when it finds nothing): how a group of small texts is scanned."""
    if none_in(texts):
        return [[] for _ in texts]
    return [find(t) for t in texts]


def redact(text: str, hits: Iterable[Hit] | None = None) -> str:
    """``text`` with each hit's value replaced by ``[REDACTED]``."""
    for hit in sorted(find(text) if hits is None else hits, key=lambda h: h.start, reverse=True):
        replacement = f"\n{REDACTED}\n" if hit.kind == "private key" else REDACTED
        text = text[: hit.start] + replacement + text[hit.end :]
    return text


# -- decoding and streaming -------------------------------------------------------------

CHUNK = 1 << 20  # characters scanned at once
OVERLAP = 8192  # carried into the next chunk, so a match across the cut is found whole


_BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def encoding(head: bytes) -> str:
    """The codec of a blob from its first bytes: a BOM (UTF-8, UTF-16, UTF-32),
    UTF-16 without one (NUL in every other byte), UTF-8; anything else with
    NUL bytes is binary, read as latin-1 so the text inside it is still seen."""
    if b"\0" not in head and not head.startswith(_BOMS):
        return "utf-8"  # most blobs: one look for a NUL
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\0" not in head:
        return "utf-8"
    sample = head[:4096]
    even, odd = sample[0::2], sample[1::2]
    if odd and odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even and even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return "latin-1"


def decode(data: bytes) -> str:
    return data.decode(encoding(data), errors="replace")


def decode_stream(chunks: Iterable[bytes], sniff: int = 4096) -> Iterator[str]:
    """Text from a blob read in pieces (the codec from its first ``sniff`` bytes)."""
    decoder: codecs.IncrementalDecoder | None = None
    head = b""
    for chunk in chunks:
        if decoder is None:
            head += chunk
            if len(head) < sniff:
                continue
            decoder = codecs.getincrementaldecoder(encoding(head))(errors="replace")
            chunk, head = head, b""
        text = decoder.decode(chunk)
        if text:
            yield text
    if decoder is None:
        decoder = codecs.getincrementaldecoder(encoding(head))(errors="replace")
    tail = decoder.decode(head, final=True)
    if tail:
        yield tail


class Window(NamedTuple):
    """A stretch of a long text ``find_stream`` scans at once."""

    text: str
    line: int  # the number of its first line in the whole text
    offset: int  # where it starts in the whole text
    safe: int  # a hit that starts before this is this window's to report


def windows(pieces: Iterable[str], chunk: int = CHUNK, overlap: int = OVERLAP) -> Iterator[Window]:
    """Text of any length cut into ``chunk`` characters at a time, each
    window carrying ``overlap`` characters of the next (cut after a newline
    where one stands), so a match up to ``overlap`` long that crosses a cut
    is whole in the window before it."""
    buffer, line, offset = "", 1, 0
    pieces = iter(pieces)
    done = False
    while not done:
        while len(buffer) < chunk + overlap and not done:
            piece = next(pieces, None)
            if piece is None:
                done = True
            else:
                buffer += piece
        if done:
            safe = len(buffer)
        else:
            safe = buffer.rfind("\n", 0, len(buffer) - overlap) + 1 or len(buffer) - overlap
        yield Window(buffer, line, offset, safe)
        line += buffer.count("\n", 0, safe)
        offset += safe
        buffer = buffer[safe:]


def find_window(text: str, line: int, safe: int) -> list[Hit]:
    """The hits a window reports (``find``'s that start before ``safe``), placed in the window."""
    return [hit for hit in find(text, line) if hit.start < safe]


def find_stream(pieces: Iterable[str], chunk: int = CHUNK, overlap: int = OVERLAP) -> Iterator[Hit]:
    """``find`` over text of any length, a window at a time (``windows``): a
    hit is reported from the window in which it does not touch the far end,
    so each is found once and whole (matches up to ``overlap`` long)."""
    for w in windows(pieces, chunk, overlap):
        for hit in find_window(w.text, w.line, w.safe):
            yield hit._replace(start=hit.start + w.offset, end=hit.end + w.offset)


# -- redaction of the state's own text ----------------------------------------------------

if TYPE_CHECKING:
    D = TypeVar("D")


def map_text(record: D, fix: Callable[[str], str]) -> D:
    """``record`` (a frozen record such as State) with ``fix`` applied to
    every string in it, nested records, tuples and mappings included; enums
    and mapping keys are left alone."""
    return _map(record, fix)  # type: ignore[no-any-return]


def _map(value: Any, fix: Callable[[str], str]) -> Any:
    if isinstance(value, Enum):
        return value
    if isinstance(value, str):
        return fix(value)
    if is_record(value):
        return replace(value, **{name: _map(getattr(value, name), fix) for name in fields(value)})
    if isinstance(value, tuple):
        return tuple(_map(v, fix) for v in value)
    if isinstance(value, list):
        return [_map(v, fix) for v in value]
    if isinstance(value, dict):
        return {k: _map(v, fix) for k, v in value.items()}
    return value


# -- files left out of a snapshot -----------------------------------------------------------

WITHHELD = "withheld"  # checkpoint key: the snapshot's files left out, each "path: why"
MAX_WITHHELD = 50


def with_withheld(k: Checkpoint, notes: list[str]) -> Checkpoint:
    """``k`` noting that these files were left out of its snapshot."""
    kept = withheld(k)
    kept += [n for n in notes if n not in kept]
    return replace(k, extra={**k.extra, WITHHELD: kept[:MAX_WITHHELD]})


def withheld(k: Checkpoint | None) -> list[str]:
    """The files left out of ``k``'s snapshot, with why (read from a state
    that may be hostile: strings only, one line each, bounded)."""
    found = k.extra.get(WITHHELD) if k is not None else None
    if not isinstance(found, list):
        return []
    out = []
    for note in found[:MAX_WITHHELD]:
        if isinstance(note, str) and note.strip():
            out.append("".join(c if bad_char(c) is None else " " for c in note.strip())[:300])
    return out
