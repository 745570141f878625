"""The rules of what looks like a credential, with nothing but Python."""

from __future__ import annotations

import base64
import codecs

import pytest

from vibegit.core import credentials as c
from vibegit.core.model import Checkpoint, Context, State, Task

# Fake values, put together at run time.
GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"
B64_KEY = base64.b64encode(
    ("-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qLkq0J3n2vP1pXkB\n").encode()
).decode()
B64_CERT = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n").decode()
AZ = "Zm9v" * 21 + "YmE=="[:2] + "=="


@pytest.mark.parametrize(
    "text, kind",
    [
        ("aws_access_key_id = AKIA" + "Z7Q2M4X8R6T1W3YP\n", "AWS access key id"),
        ("-----BEGIN EC " + "PRIVATE KEY-----\nMHcCAQEEIAbcdefghijklmnopqrstuvwxyz012345\n-----END", "private key"),
        (f"token: {GHP}\n", "GitHub token"),
        ("SLACK=xoxb-" + "123456789012-abcdefghijkl\n", "Slack token"),
        ("db = postgres://app:s3cr3t-pw@db.internal:5432/app\n", "password in a URL"),
        ("cache: redis://:Zk2p9QwLx7Rt@redis:6379/0\n", "password in a URL"),  # empty user
        ('API_KEY = "9f8e7d6c5b4a39281726"\n', "secret assigned to a key-like name"),
        ("DB_PASSWORD=Tr0u$b4dor&3x!\n", "secret assigned to a key-like name"),  # '$' inside
        ('  secretKey: "q8Z2kP0xW4mN7vB1cR5tY9uJ3hG6fD2sA0lK8jH4",\n', "secret assigned to a key-like name"),
        (f"DefaultEndpointsProtocol=https;AccountName=x;AccountKey={AZ};", "Azure storage key"),
        ("the key is sk-proj-" + "Ab3De5Fg7Hj9Kl1Mn2Pq4Rs6Tu8Vw0Xy2Za4Bc6De8Fg0Hi\n", "OpenAI key"),
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3In0.abcdefghijklmnopqrstuvwx\n",
            "JSON web token",
        ),
        ("https://hooks.slack.com/services/" + "T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX\n", "Slack webhook"),
        ("machine api.example.org login me password Hx9sK2mQ4pLw\n", "netrc password"),
        # issue 24: formats the rules missed
        (f"    client-key-data: {B64_KEY}\n", "base64 private key"),
        (f"  tls.key: {B64_KEY}\n", "base64 private key"),
        ("HF_TOKEN=hf_" + "QmZtLxVbNcKdPfHsJwRyTaUeIoPaSdFgHj\n", "Hugging Face token"),
        ("VAULT_TOKEN=hvs." + "CAESIJ9k2Lm8Xq4Vb7Nc1Zt6Yw3Hs5Pd0Gf2Kj8Rq4Mn7\n", "Vault token"),
        ("curl -fsS -u deploy:S3cr3t!x9 https://ci.example.org/job\n", "password in a curl command"),
        ("curl --user=ci-bot:Zq8wLp2xKm4 https://x.example.org\n", "password in a curl command"),
        ("sshpass -p 'Hx9sK2mQ4pLw' ssh deploy@10.0.0.4\n", "password in an sshpass command"),
        ("mysql -h db -u root -pT0pS3cret! appdb < dump.sql\n", "password in a mysql command"),
        ("mysqldump -uroot -p'Kq7#mZ2x' shop > shop.sql\n", "password in a mysql command"),
        ("bot = Bot('1134674499:AA" + "Oq3Xb7Lm2Vz9Kp4Wt6Yh8Nc1Rd5Fs0Gj2')\n", "Telegram bot token"),
        ("TWILIO_API_KEY=SK" + "ef95235cb388c141f8b7a6c5d4e3f201\n", "Twilio API key"),
        (
            'Client("AC' + "1f2e3d4c5b6a79881f2e3d4c5b6a7988" + '", "' + "661e3944e210b72f0aaa4c7d9b1e3f55" + '")\n',
            "Twilio auth token",
        ),
    ],
)
def test_found_on_its_line(text: str, kind: str) -> None:
    hits = c.find("first line\n" + text)
    assert [(h.line, h.kind) for h in hits][:1] == [(2, kind)]
    assert c.REDACTED in c.redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "password: changeme\n",
        "API_KEY=${API_KEY}\n",
        "monkey = bananarama12\n",  # ends with 'key', but is no key-like name
        "key = value\n",
        "https://example.com/user@host\n",
        "SECRET_KEY = os.environ['SECRET_KEY']\n",
        "token = aaaaaaaaaaaaaaaa\n",
        "    token = issue_token(user)  # WIP\n",
        "API_KEY = settings.api_key\n",
        "x_token = session_token\n",
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n",  # the AWS documentation's key
        "url = postgres://scott:tiger@localhost/test\n",  # demo credentials
        "AWS_SECRET_ACCESS_KEY=\nSLACK_CHANNEL=general-announcements\n",  # an empty value does not take the next line
        # issue 24: names of columns and caches assigned to *_KEY, and the new rules' near misses
        'primary_key = "user_id_2024_v2"\n',
        'SORT_KEY = "created_at_desc_v3"\n',
        "cache_key = 'report:daily:v4'\n",
        f"    client-certificate-data: {B64_CERT}\n",  # a certificate is public
        "from huggingface_hub import hf_hub_download, hf_hubdownloadwithprogressbar\n",
        "vault token lookup hvs.XXXXXXXXXXXXXXXXXXXXXXXX\n",
        'curl -u "$CI_USER:$CI_TOKEN" https://ci.example.org\n',
        "curl -u admin:admin http://localhost:8080/\n",
        "sshpass -e ssh -p 2222 backup@host\n",  # ssh's -p is a port
        "sshpass -f ~/.pw scp -P 2222 a b@c:\n",
        "mysql -h db -u root -p orders\n",  # -p alone prompts
        'mysql -u app -p"$MYSQL_PWD" orders\n',
        "https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage\n",
        "TWILIO_ACCOUNT_SID=ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
        "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n",  # documentation
        'curl -H "Authorization: Bearer <token>"\n',
        "ssl_key = /etc/ssl/private/client-key.pem\n",
    ],
)
def test_ordinary_text_passes(text: str) -> None:
    assert c.find(text) == []


def test_fingerprints_name_the_value_not_the_place() -> None:
    one = c.find(f"a = 1\ntoken: {GHP}\n")[0]
    two = c.find(f"GITHUB={GHP}")[0]
    assert one.fingerprint == two.fingerprint == c.fingerprint(GHP)
    assert c.FINGERPRINT.match(one.fingerprint) and GHP not in one.fingerprint


@pytest.mark.parametrize("codec, bom", [("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("utf-16-le", b""),
                                        ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                                        ("utf-32-le", codecs.BOM_UTF32_LE)])  # fmt: skip
def test_text_is_decoded_whatever_its_encoding(codec: str, bom: bytes) -> None:
    data = bom + f"héllo\r\nGITHUB_TOKEN={GHP}\r\n".encode(codec)
    assert [h.line for h in c.find(c.decode(data))] == [2]
    pieces = [data[i : i + 3] for i in range(0, len(data), 3)]  # split inside characters
    assert [h.line for h in c.find_stream(c.decode_stream(pieces))] == [2]


def test_binary_is_read_as_bytes_so_text_inside_it_is_seen() -> None:
    data = b"\x89PNG\0\0\x01" * 50 + f"\0token={GHP}\0".encode() + b"\xff\0" * 50
    assert c.encoding(data) == "latin-1"
    assert [h.kind for h in c.find(c.decode(data))] == ["GitHub token"]


def test_streaming_finds_each_hit_once_and_whole_across_chunks() -> None:
    filler = "".join(f"line {i} ordinary text\n" for i in range(3000))
    pem = (
        "-----BEGIN RSA "
        + "PRIVATE KEY-----\n"
        + "MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn\n" * 30
        + "-----END RSA PRIVATE KEY-----\n"
    )
    text = filler + f"t = '{GHP}'\n" + filler + pem + filler + "machine h\n login u\n password Hx9sK2mQ4pLw\n"
    whole = c.find(text)
    for chunk in (512, 1000, 4096):
        pieces = [text[i : i + 333] for i in range(0, len(text), 333)]
        streamed = list(c.find_stream(pieces, chunk=chunk, overlap=2048))
        assert [(h.line, h.kind, h.value) for h in streamed] == [(h.line, h.kind, h.value) for h in whole]
        assert [(h.start, h.end) for h in streamed] == [(h.start, h.end) for h in whole]
    assert [h.kind for h in whole] == ["GitHub token", "private key", "netrc password"]


def test_the_state_text_is_redacted_field_by_field() -> None:
    state = State(
        context=Context(goal="ship", last_action=f"{GHP} pasted", pending_questions=(f"rotate {GHP}?",)),
        tasks=(Task("T-001", f"revoke {GHP}"),),
        checkpoint=Checkpoint(commit="a" * 40, extra={"note": f"x {GHP}"}),
    )
    clean = c.map_text(state, c.redact)
    assert clean.context.last_action == "[REDACTED] pasted" and clean.context.goal == "ship"
    assert clean.context.pending_questions == ("rotate [REDACTED]?",)
    assert clean.tasks[0].title == "revoke [REDACTED]" and clean.tasks[0].id == "T-001"
    assert clean.checkpoint is not None and clean.checkpoint.commit == "a" * 40
    assert clean.checkpoint.extra == {"note": "x [REDACTED]"}


def test_files_left_out_of_a_snapshot_are_noted_in_the_checkpoint() -> None:
    k = c.with_withheld(Checkpoint(), ["a.env: looked like a credential"])
    k = c.with_withheld(k, ["a.env: looked like a credential", "b.env: too"])
    assert c.withheld(k) == ["a.env: looked like a credential", "b.env: too"]
    hostile = Checkpoint(extra={"withheld": ["x\x1b[2Jy", 3, {"a": 1}, "z" * 999]})
    assert c.withheld(hostile) == ["x [2Jy", "z" * 300]
    assert c.withheld(Checkpoint(extra={"withheld": "nope"})) == [] and c.withheld(None) == []


def _plain_find(text: str) -> list[tuple[int, int, str, str]]:
    """``find`` without its prefilters: every rule run over the whole text."""
    found = []
    for index, rule in enumerate(c.RULES):
        for match in rule.pattern.finditer(text):
            start = match.start()
            if start > 0 and rule.edge and text[start - 1] in rule.edge:
                continue
            if c._passes(rule, match, text):
                found.append((match.start(rule.group), index, rule.kind, match.group(rule.group)))
    found.sort()
    kept: list[tuple[int, int, str, str]] = []
    for hit in found:
        if kept and hit[0] < kept[-1][0] + len(kept[-1][3]):
            if hit[1] < kept[-1][1]:
                kept[-1] = hit
            continue
        kept.append(hit)
    return [(s, len(v), kind, v) for s, _, kind, v in kept]


@pytest.mark.parametrize(
    "text",
    [
        "secretoken=Zx9Vb8Nm7Lk6Jh5Gf",  # the second name overlaps the first
        "keykey=Zx9Vb8Nm7Lk6Jh5Gf and passwordtoken: a8Hj3kL9mN2bV5c",
        "\u212aEY=Zx9Vb8Nm7Lk6Jh5 \u017fecret: aZ9xY8wV7uT6sR5",  # letters a case-insensitive rule reads as k, s
        "\u0130 passwd=Qw3rTy8uIo0p",  # lower-casing this one moves places
        "host:5432:db:user:Hunter2Secret\nmachine example.com login me password S3cretPw\n",
        "x" * 30 + ".abcdef." + "y" * 30,
        "NzkwMTIzNDU2Nzg5MDEyMzQ1Njc4.Xy1Ab2.Cd3Ef4Gh5Ij6Kl7Mn8Op9Qr0St1Uv2",
        f"{GHP} AKIA{'Z7Q2M4X8R6T1W3YP'} Bearer abcDEF123ghiJKL456mnoPQR789\n",
        # a name inside the value before, right where that value's 250 characters end
        "secret=" + "a1" * 122 + "token=token=Zx9Vb8Nm7Lk6Jh5Gf",
        "key = 'short' Key: Zx9Vb8Nm7Lk6Jh5Gf PASSWORD => \"Qw3rTy8uIo0pAs\" passwd:=Qw3rTy8uIo0p",
        "glpat-Ab3dE5fG7hJ9kL1mN2pQ xoxb-1234567890-Ab3dE5 sk_live_Ab3dE5fG7hJ9kL1mN2pQ4r "
        "AIzaSyAb3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2 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 "
        "npm_Ab3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4 https://me:S3cr3tPw@db.example.com "
        'Basic dXNlcjpTM2NyM3RQdzk= "auth": "dXNlcjpTM2NyM3RQdzk="',
        "sk-proj-"
        + "Ab3dE5fG7h" * 5
        + " sk-ant-api03-"
        + "Ab3dE5fG7h" * 9
        + " pypi-AgE"
        + "Ab3dE5fG7h" * 6
        + " eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.Ab3dE5fG7hJ9kL1mN2pQ4r",
        f"client-key-data: {B64_KEY} 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 "
        "hvs.CAESIJ9k2Lm8Xq4Vb7Nc1Zt6Yw3Hs5Pd0Gf2Kj8Rq4Mn7 1134674499:AAOq3Xb7Lm2Vz9Kp4Wt6Yh8Nc1Rd5Fs0Gj2 "
        "SKef95235cb388c141f8b7a6c5d4e3f201 AC1f2e3d4c5b6a79881f2e3d4c5b6a7988:661e3944e210b72f0aaa4c7d9b1e3f55\n"
        "curl -u deploy:S3cr3t!x9 https://x sshpass -p Hx9sK2mQ4pLw ssh h\nmysqldump -uroot -pKq7mZ2xQ shop\n",
    ],
)
def test_the_prefilters_lose_nothing(text: str) -> None:
    """Each rule's prefilter only skips work: the hits are those of every rule run over the whole text."""
    assert [(h.start, h.end - h.start, h.kind, h.value) for h in c.find(text)] == _plain_find(text)


def test_none_in_is_exact_for_texts_next_to_each_other() -> None:
    """Texts scanned together hold a hit whenever one of them alone does (the
    whole may hold more: a netrc entry or a key split across two texts)."""
    parts = [
        f"TOKEN = '{GHP}'",
        "API_KEY = ",
        "'9f8e7d6c5b4a39281726'",
        "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn",
        "-----END RSA PRIVATE KEY-----",
        "machine example.com login me",
        "password S3cretPw9",
        "host:5432:db:user:",
        "Hunter2Secret",
        "postgres://app:",
        "s3cr3t-pw@db.internal/app",
        "ghp_",
        "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4",
        "api",
        "Key: Zx9Vb8Nm7Lk6Jh5Gf",
        "plain words only",
        "x = call(",
        ")",
    ]
    for a in parts:
        for b in parts:
            if c.find(a) or c.find(b):
                assert not c.none_in([a, b]), (a, b)
