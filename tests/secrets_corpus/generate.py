"""The true half of the secret-scan corpus, generated: fake credentials of
real shapes (seeded, so the same bytes every run), one per file, each with
the line it is on. Generated into a temporary directory at test time and by
the benchmark, never committed: hosting push protection may refuse a
repository holding realistic keys. The false half (real code that holds no
credential) is committed beside this file, in false/ (sources in SOURCES.md).

    python tests/secrets_corpus/generate.py DIR   # writes the files and manifest.json

Adapted from the research corpus in docs/secrets.md.
"""

from __future__ import annotations

import base64
import json
import random
import string
import sys
import uuid
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
FALSE = HERE / "false"

R = random.Random(0x5EC12E7)
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
HEX = "0123456789abcdef"


def rs(n: int, alphabet: str = ALNUM) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def rs_mostly(n: int, rare: str = "-_", p: float = 0.04) -> str:
    """Random alnum with the odd '-' / '_' as real base64url token bodies have."""
    return "".join(R.choice(rare) if R.random() < p else R.choice(ALNUM) for _ in range(n))


def b64(nbytes: int) -> str:
    return base64.b64encode(R.randbytes(nbytes)).decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def pem_body(prefix_b64: str, total_chars: int, width: int = 64) -> str:
    body = prefix_b64 + rs(total_chars - len(prefix_b64), B64)
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


# ---------------------------------------------------------------- fake values
def aws_id() -> str:
    return "AKIA" + rs(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


def aws_secret() -> str:
    return rs(40, B64)


def azure_key() -> str:
    return base64.b64encode(R.randbytes(64)).decode()  # 88 chars, ends with ==


def openai_legacy() -> str:
    return "sk-" + rs(20) + "T3BlbkFJ" + rs(20)


def openai_proj() -> str:
    return "sk-proj-" + rs_mostly(64) + "T3BlbkFJ" + rs_mostly(64)


def openai_svcacct() -> str:
    return "sk-svcacct-" + rs_mostly(64) + "T3BlbkFJ" + rs_mostly(64)


def anthropic() -> str:
    return "sk-ant-api03-" + rs_mostly(93) + "AA"


def ghp() -> str:
    return "ghp_" + rs(36)


def github_pat() -> str:
    return "github_pat_11" + rs(20, string.ascii_uppercase + string.digits) + "_" + rs(59)


def glpat() -> str:
    return "glpat-" + rs_mostly(20)


def slack_bot() -> str:
    return f"xoxb-{rs(12, string.digits)}-{rs(13, string.digits)}-{rs(24)}"


def slack_hook() -> str:
    up = string.ascii_uppercase + string.digits
    return f"https://hooks.slack.com/services/T{rs(10, up)}/B{rs(10, up)}/{rs(24)}"


def stripe_live() -> str:
    return "sk_live_51" + rs(97)


def google_key() -> str:
    return "AIza" + rs_mostly(35)


def jwt() -> str:
    head = b64url(json.dumps({"alg": "RS256", "typ": "JWT", "kid": rs(16, HEX)}, separators=(",", ":")).encode())
    body = b64url(
        json.dumps(
            {
                "iss": "https://auth.acme-corp.io/",
                "sub": str(uuid.UUID(int=R.getrandbits(128))),
                "aud": "api://orders",
                "iat": 1733900000,
                "exp": 1733903600,
                "scope": "orders:read orders:write",
            },
            separators=(",", ":"),
        ).encode()
    )
    return f"{head}.{body}.{b64url(R.randbytes(256))}"


def rsa_pem() -> str:
    return (
        "-----BEGIN RSA PRIVATE KEY-----\n" + pem_body("MIIEpAIBAAKCAQEA", 1596) + "\n-----END RSA PRIVATE KEY-----\n"
    )


def pkcs8_pem(newline: str = "\n") -> str:
    return (
        "-----BEGIN PRIVATE KEY-----"
        + newline
        + pem_body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1624).replace("\n", newline)
        + newline
        + "-----END PRIVATE KEY-----"
        + newline
    )


def ec_pem() -> str:
    return "-----BEGIN EC PRIVATE KEY-----\n" + pem_body("MHcCAQEEI", 164) + "\n-----END EC PRIVATE KEY-----\n"


def openssh_pem() -> str:
    prefix = "b3BlbnNzaC1yZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pem_body(prefix, 400, 70) + "\n-----END OPENSSH PRIVATE KEY-----\n"


def password_dollar() -> str:
    parts = [rs(3), "$", rs(4), R.choice("!#%&"), rs(3), "$", rs(2)]
    return "".join(parts)


def npm_token() -> str:
    return "npm_" + rs(36)


def pypi_token() -> str:
    return "pypi-AgEIcHlwaS5vcmc" + rs_mostly(160)


def twilio_sid() -> str:
    return "AC" + rs(32, HEX)


def sendgrid() -> str:
    return f"SG.{rs_mostly(22)}.{rs_mostly(43)}"


def discord() -> str:
    uid = str(R.randint(10**17, 13 * 10**17))
    return f"{b64url(uid.encode())}.{rs_mostly(6)}.{rs_mostly(38)}"


def docker_pat() -> str:
    return "dckr_pat_" + rs_mostly(27)


# ---------------------------------------------------------------- true corpus
# (file name, format, encoding, text, anchor, extra anchors accepted, note)
# anchor: a substring whose line is the expected line.  encoding: utf-8 | utf-8-sig | utf-16-le | utf-16-be
TRUE_SPECS: list[dict] = []


def t(
    name: str,
    fmt: str,
    text: str,
    anchor: str,
    *,
    also: tuple[str, ...] = (),
    enc: str = "utf-8",
    crlf: bool = False,
    kind_hint: str = "",
) -> None:
    TRUE_SPECS.append(
        dict(
            name=name,
            format=fmt,
            text=text,
            anchor=anchor,
            also=also,
            encoding=enc,
            crlf=crlf,
            credential=kind_hint or fmt,
        )
    )


def build_true_specs() -> None:
    kid, ksec = aws_id(), aws_secret()
    t(
        "aws_dotenv.env",
        "dotenv",
        f"# local overrides, do not commit\nAWS_REGION=eu-west-1\nAWS_ACCESS_KEY_ID={kid}\n"
        f"AWS_SECRET_ACCESS_KEY={ksec}\nS3_BUCKET=acme-uploads-prod\n",
        ksec,
        also=(kid,),
        kind_hint="AWS access key id + secret access key",
    )
    kid, ksec = aws_id(), aws_secret()
    t(
        "aws_credentials.ini",
        "ini (~/.aws/credentials)",
        f"[default]\naws_access_key_id = {kid}\n"
        f"aws_secret_access_key = {ksec}\nregion = us-east-1\n\n[staging]\nrole_arn = arn:aws:iam::123456789012:role/Deploy\n"
        "source_profile = default\n",
        ksec,
        also=(kid,),
        kind_hint="AWS access key id + secret access key",
    )
    kid, ksec = aws_id(), aws_secret()
    t(
        "aws_boto.py",
        "python",
        'import boto3\n\n\ndef s3_client():\n    return boto3.client(\n        "s3",\n'
        f'        aws_access_key_id="{kid}",\n        aws_secret_access_key="{ksec}",\n'
        '        region_name="eu-central-1",\n    )\n',
        ksec,
        also=(kid,),
        kind_hint="AWS access key id + secret access key",
    )
    kid, ksec = aws_id(), aws_secret()
    t(
        "aws_ps_utf16le.env",
        "dotenv (PowerShell Out-File)",
        f"AWS_ACCESS_KEY_ID={kid}\nAWS_SECRET_ACCESS_KEY={ksec}\nAWS_DEFAULT_REGION=us-west-2\n",
        ksec,
        also=(kid,),
        enc="utf-16-le",
        crlf=True,
        kind_hint="AWS access key id + secret access key",
    )

    acct = "acmeprod" + rs(4, string.ascii_lowercase + string.digits)
    az = azure_key()
    t(
        "azure_appsettings_utf8bom.json",
        "json (appsettings.json)",
        '{\n  "Logging": {\n    "LogLevel": {\n'
        '      "Default": "Information"\n    }\n  },\n  "ConnectionStrings": {\n'
        f'    "Blob": "DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={az};EndpointSuffix=core.windows.net"\n'
        '  },\n  "AllowedHosts": "*"\n}\n',
        az,
        enc="utf-8-sig",
        crlf=True,
        kind_hint="Azure storage AccountKey",
    )
    az = azure_key()
    t(
        "azure_storage.env",
        "dotenv",
        'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName='
        f'acmelogs;AccountKey={az};EndpointSuffix=core.windows.net"\nAZURE_CONTAINER=logs\n',
        az,
        kind_hint="Azure storage AccountKey",
    )

    k = openai_proj()
    t("openai_proj.env", "dotenv", f"OPENAI_API_KEY={k}\nOPENAI_MODEL=gpt-4o-mini\n", k, kind_hint="OpenAI sk-proj")
    k = openai_legacy()
    t(
        "openai_legacy.py",
        "python",
        "from openai import OpenAI\n\n"
        f'client = OpenAI("{k}")\n\nresp = client.chat.completions.create(model="gpt-4o", messages=[])\n',
        k,
        kind_hint="OpenAI sk- (legacy, bare argument)",
    )
    k = openai_proj()
    t(
        "openai_transcript.md",
        "markdown (agent transcript, free text)",
        "## Session notes\n\n"
        "The tests failed with 401 until I exported the key by hand:\n\n"
        f"    export OPENAI_KEY={k}\n\nAfter that `pytest tests/test_llm.py` passed.\n",
        k,
        kind_hint="OpenAI sk-proj (bare, free text)",
    )
    k = openai_svcacct()
    t(
        "openai_svcacct.ts",
        "typescript",
        f'import OpenAI from "openai";\n\nexport const openai = new OpenAI({{ apiKey: "{k}" }});\n',
        k,
        kind_hint="OpenAI sk-svcacct",
    )

    k = anthropic()
    t("anthropic.env", "dotenv", f"ANTHROPIC_API_KEY={k}\n", k, kind_hint="Anthropic sk-ant")
    k = anthropic()
    t(
        "anthropic_client.ts",
        "typescript",
        'import Anthropic from "@anthropic-ai/sdk";\n\n'
        f'const client = new Anthropic({{\n  apiKey: "{k}",\n}});\n\nexport default client;\n',
        k,
        kind_hint="Anthropic sk-ant",
    )
    k = anthropic()
    t(
        "anthropic_commitmsg.txt",
        "commit message (free text)",
        f"Fix retry loop in the summariser\n\nTested against the live API with {k} (revoke later).\n",
        k,
        kind_hint="Anthropic sk-ant (bare, free text)",
    )

    k = ghp()
    t(
        "github_config.yaml",
        "yaml",
        f"github:\n  org: acme\n  token: {k}\n  repos:\n    - api\n    - web\n",
        k,
        kind_hint="GitHub ghp_",
    )
    k = github_pat()
    t(
        "github_pat.py",
        "python",
        "import requests\n\n"
        f'HEADERS = {{"Authorization": "Bearer {k}", "Accept": "application/vnd.github+json"}}\n\n\n'
        'def repos():\n    return requests.get("https://api.github.com/user/repos", headers=HEADERS).json()\n',
        k,
        kind_hint="GitHub github_pat_",
    )
    k = ghp()
    t(
        "github_clone_utf16le.ps1",
        "powershell (UTF-16 LE)",
        f"$ErrorActionPreference = 'Stop'\ngit clone https://{k}@github.com/acme/infra.git C:\\src\\infra\n",
        k,
        enc="utf-16-le",
        crlf=True,
        kind_hint="GitHub ghp_ in a URL",
    )

    k = glpat()
    t("gitlab.env", "dotenv", f"GITLAB_URL=https://gitlab.acme.io\nGITLAB_TOKEN={k}\n", k, kind_hint="GitLab glpat-")

    k = slack_bot()
    t(
        "slack_settings_utf16be.json",
        "json (UTF-16 BE)",
        f'{{\n  "slack": {{\n    "channel": "#deploys",\n    "botToken": "{k}"\n  }}\n}}\n',
        k,
        enc="utf-16-be",
        kind_hint="Slack xoxb-",
    )
    k = slack_hook()
    t(
        "slack_notify.py",
        "python",
        "import json\nimport urllib.request\n\n"
        f'WEBHOOK = "{k}"\n\n\ndef notify(text):\n'
        '    req = urllib.request.Request(WEBHOOK, json.dumps({"text": text}).encode(),\n'
        '                                 {"Content-Type": "application/json"})\n    urllib.request.urlopen(req)\n',
        k,
        kind_hint="Slack webhook URL",
    )

    k = stripe_live()
    t(
        "stripe_index.ts",
        "typescript",
        'import Stripe from "stripe";\n\n'
        f'const stripe = new Stripe("{k}", {{ apiVersion: "2024-06-20" }});\n\nexport default stripe;\n',
        k,
        kind_hint="Stripe sk_live_",
    )
    k = google_key()
    t(
        "google_maps.js",
        "javascript",
        'const map = new google.maps.Map(document.getElementById("map"), { zoom: 8 });\n'
        f'loader.load({{ key: "{k}", libraries: ["places"] }});\n',
        k,
        kind_hint="Google API key",
    )

    k = jwt()
    t(
        "bearer_http.log",
        "log",
        "2024-12-11T09:14:02Z DEBUG http.client send: b'GET /v1/orders?limit=50 HTTP/1.1\\r\\n'\n"
        "2024-12-11T09:14:02Z DEBUG http.client header: Host: api.acme-corp.io\n"
        f"2024-12-11T09:14:02Z DEBUG http.client header: Authorization: Bearer {k}\n"
        "2024-12-11T09:14:02Z DEBUG http.client reply: 'HTTP/1.1 200 OK'\n",
        k,
        kind_hint="Bearer JWT",
    )
    k = jwt()
    t(
        "bearer_curl.md",
        "markdown",
        "# Calling the orders API\n\n```sh\ncurl https://api.acme-corp.io/v1/orders \\\n"
        f"  -H 'Authorization: Bearer {k}'\n```\n",
        k,
        kind_hint="Bearer JWT",
    )

    k = rsa_pem()
    t("id_rsa.pem", "PEM (RSA)", k, "-----BEGIN RSA PRIVATE KEY-----", kind_hint="RSA private key")
    k = ec_pem()
    t("ec_key.pem", "PEM (EC)", k, "-----BEGIN EC PRIVATE KEY-----", kind_hint="EC private key")
    k = openssh_pem()
    t("id_ed25519", "OpenSSH private key", k, "-----BEGIN OPENSSH PRIVATE KEY-----", kind_hint="OPENSSH private key")
    k = pkcs8_pem()
    t(
        "tls_in_config.yaml",
        "yaml (block scalar)",
        "server:\n  port: 8443\n  tls:\n    cert: /etc/tls/server.crt\n"
        "    key: |\n" + "".join("      " + line + "\n" for line in k.splitlines()),
        "-----BEGIN PRIVATE KEY-----",
        also=("    key: |",),
        kind_hint="PKCS#8 private key in YAML",
    )
    k = pkcs8_pem("\\n")
    t(
        "gcp_service_account.json",
        "json (GCP service account)",
        '{\n  "type": "service_account",\n'
        '  "project_id": "acme-prod-4821",\n'
        f'  "private_key_id": "{rs(40, HEX)}",\n  "private_key": "{k}",\n'
        '  "client_email": "deployer@acme-prod-4821.iam.gserviceaccount.com",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n}\n',
        "-----BEGIN PRIVATE KEY-----",
        kind_hint="PKCS#8 key JSON-escaped",
    )

    pw = password_dollar()
    t(
        "db_password.env",
        "dotenv",
        f"DB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD={pw}\nDB_NAME=orders\n",
        pw,
        kind_hint="password with $",
    )
    pw = password_dollar()
    t(
        "docker-compose.yml",
        "yaml (compose)",
        "services:\n  db:\n    image: postgres:16\n    environment:\n"
        f'      POSTGRES_USER: app\n      POSTGRES_PASSWORD: "{pw}"\n    ports:\n      - "5432:5432"\n',
        pw,
        kind_hint="password with $",
    )
    pw = password_dollar()
    t(
        "settings.json",
        "json",
        '{\n  "database": {\n    "host": "10.0.4.12",\n    "user": "reporting",\n'
        f'    "password": "{pw}"\n  }},\n  "debug": false\n}}\n',
        pw,
        kind_hint="password with $",
    )
    pw = password_dollar()
    t(
        "app_password.py",
        "python",
        "import psycopg\n\n"
        f'conn = psycopg.connect(host="db.internal", user="etl", password="{pw}", dbname="warehouse")\n',
        pw,
        kind_hint="password with $ as a keyword argument",
    )

    k = rs(40, B64)
    t(
        "minio.config.js",
        "javascript",
        'module.exports = {\n  endPoint: "minio.acme.io",\n  port: 9000,\n'
        f'  accessKey: "{rs(20, string.ascii_uppercase + string.digits)}",\n  secretKey: "{k}",\n}};\n',
        k,
        kind_hint="camelCase secretKey",
    )
    k = rs(32, HEX)
    t(
        "weather.ts",
        "typescript",
        'const BASE = "https://api.openweathermap.org/data/2.5";\n'
        f'const apiKey = "{k}";\n\nexport async function forecast(city: string) {{\n'
        "  return fetch(`${BASE}/forecast?q=${city}&appid=${apiKey}`).then((r) => r.json());\n}\n",
        k,
        kind_hint="camelCase apiKey",
    )
    k = rs_mostly(40, "-_~.")
    t(
        "OAuthConfig.java",
        "java",
        "package com.acme.auth;\n\npublic final class OAuthConfig {\n"
        '    public static final String clientId = "8f1c2a9e-acme-portal";\n'
        f'    private static final String clientSecret = "{k}";\n\n    private OAuthConfig() {{}}\n}}\n',
        k,
        kind_hint="camelCase clientSecret",
    )
    pw = rs(6) + "$" + rs(5) + "!"
    t(
        "application.properties",
        "java properties",
        "server.port=8080\n"
        "spring.datasource.url=jdbc:postgresql://db.internal:5432/shop\nspring.datasource.username=shop\n"
        f"spring.datasource.password={pw}\nspring.jpa.hibernate.ddl-auto=validate\n",
        pw,
        crlf=True,
        kind_hint="properties password",
    )

    pw = rs(3) + "$$" + rs(6)
    t(
        "database_url.env",
        "dotenv",
        f"DATABASE_URL=postgres://appuser:{pw}@db.prod.internal:5432/app\n",
        pw,
        kind_hint="postgres URL with password",
    )
    pw = rs(14)
    t(
        "settings_mysql.py",
        "python",
        'DATABASES = {\n    "default": dj_database_url.parse(\n'
        f'        "mysql://django:{pw}@mysql.internal:3306/site"\n    )\n}}\n',
        pw,
        kind_hint="mysql URL with password",
    )
    pw = rs(16)
    t(
        "mongo.ts",
        "typescript",
        'import { MongoClient } from "mongodb";\n\n'
        f'const uri = "mongodb+srv://svc_orders:{pw}@cluster0.ab12c.mongodb.net/?retryWrites=true";\n'
        "export const client = new MongoClient(uri);\n",
        pw,
        kind_hint="mongodb+srv URL with password",
    )
    pw = rs(24)
    t(
        "redis_url.yaml",
        "yaml",
        f"cache:\n  url: redis://:{pw}@redis.internal:6379/0\n  ttl: 300\n",
        pw,
        kind_hint="redis URL with password, empty user",
    )

    k = npm_token()
    t(
        ".npmrc",
        "npmrc",
        f"registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={k}\n",
        k,
        kind_hint="npm _authToken",
    )
    k = pypi_token()
    t(
        ".pypirc",
        "pypirc",
        f"[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = {k}\n",
        k,
        kind_hint="PyPI token",
    )

    sid, tok = twilio_sid(), rs(32, HEX)
    t(
        "twilio.env",
        "dotenv",
        f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={tok}\nTWILIO_FROM=+15005550006\n",
        tok,
        also=(sid,),
        kind_hint="Twilio SID + auth token",
    )
    k = sendgrid()
    t(
        "mailer.py",
        "python",
        f'from sendgrid import SendGridAPIClient\n\nsg = SendGridAPIClient("{k}")\n',
        k,
        kind_hint="SendGrid SG.",
    )
    k = str(uuid.UUID(int=R.getrandbits(128), version=4))
    t("heroku.env", "dotenv", f"HEROKU_APP=acme-staging\nHEROKU_API_KEY={k}\n", k, kind_hint="Heroku API key (UUID)")
    k = "HRKU-" + rs_mostly(60)
    t(
        ".netrc",
        "netrc",
        f"machine api.heroku.com\n  login dev@acme.io\n  password {k}\n",
        k,
        kind_hint="Heroku HRKU- token in .netrc",
    )
    k = discord()
    t(
        "discord_bot.py",
        "python",
        "import discord\n\nintents = discord.Intents.default()\n"
        f'client = discord.Client(intents=intents)\n\nclient.run("{k}")\n',
        k,
        kind_hint="Discord bot token",
    )
    auth = base64.b64encode(f"acmeci:{docker_pat()}".encode()).decode()
    t(
        "docker_config.json",
        "json (~/.docker/config.json)",
        '{\n\t"auths": {\n\t\t"https://index.docker.io/v1/": {\n'
        f'\t\t\t"auth": "{auth}"\n\t\t}}\n\t}},\n\t"credsStore": ""\n}}\n',
        auth,
        kind_hint="Docker config auth",
    )

    # harder but common shapes
    basic = base64.b64encode(f"deploy:{rs(18)}".encode()).decode()
    t(
        "basic_auth.log",
        "log",
        '10.2.0.14 - - [11/Dec/2024:10:02:11 +0000] "POST /hooks/build HTTP/1.1" 202 17\n'
        f"DEBUG request headers: {{'User-Agent': 'ci/2.1', 'Authorization': 'Basic {basic}'}}\n",
        basic,
        kind_hint="HTTP Basic auth header",
    )
    k = rs(43, B64URL)
    t(
        "access_token_query.log",
        "log",
        f"INFO  proxy  GET https://graph.acme.io/v2/me/photos?fields=id,caption&access_token={k} -> 200 (143ms)\n",
        k,
        kind_hint="access_token in a URL query",
    )
    k = rs(32, HEX)
    t(
        "deploy.sh",
        "shell",
        f"#!/bin/sh\nset -eu\nexport DATADOG_API_KEY={k}\n./bin/deploy --env prod\n",
        k,
        kind_hint="export API key",
    )
    pw = rs(10) + "#" + rs(4)
    t(
        "main.tf",
        "terraform",
        'resource "aws_db_instance" "orders" {\n  engine         = "postgres"\n'
        f'  username       = "orders"\n  password       = "{pw}"\n  instance_class = "db.t4g.small"\n}}\n',
        pw,
        kind_hint="terraform password",
    )
    k = rs(48)
    t(
        "client.go",
        "go",
        f'package client\n\nconst apiSecret = "{k}"\n\nfunc Secret() string {{ return apiSecret }}\n',
        k,
        kind_hint="Go const apiSecret",
    )
    pw = rs(8) + "$" + rs(4) + "!"
    t(
        "Web.config.cs",
        "c# connection string",
        'var cs = "Server=sql01.acme.local;Database=Billing;'
        f'User Id=sa;Password={pw};TrustServerCertificate=True";\nusing var conn = new SqlConnection(cs);\n',
        pw,
        kind_hint="ADO.NET connection string Password=",
    )
    pw = rs(20)
    t(
        "k8s_secret.yaml",
        "yaml (kubernetes Secret)",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: orders-db\n"
        f"type: Opaque\nstringData:\n  username: orders\n  password: {pw}\n",
        pw,
        kind_hint="k8s stringData password",
    )
    k = openai_legacy()
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "outputs": [],
                "source": ["import openai\n", f'openai.api_key = "{k}"\n', "openai.models.list()"],
            }
        ],
        "metadata": {"kernelspec": {"name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    t(
        "explore.ipynb",
        "jupyter notebook (JSON)",
        json.dumps(nb, indent=1) + "\n",
        k,
        kind_hint="OpenAI key in a notebook",
    )
    pw = rs(12)
    t("pgpass", ".pgpass", f"db.prod.internal:5432:orders:orders_rw:{pw}\n", pw, kind_hint=".pgpass line")


ENCODERS = {
    "utf-8": lambda s: s.encode("utf-8"),
    "utf-8-sig": lambda s: b"\xef\xbb\xbf" + s.encode("utf-8"),
    "utf-16-le": lambda s: b"\xff\xfe" + s.encode("utf-16-le"),
    "utf-16-be": lambda s: b"\xfe\xff" + s.encode("utf-16-be"),
}


def line_of(text: str, needle: str) -> int:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1


def build_encoded_specs() -> None:
    """The formats the issue names again, as editors on Windows save them:
    UTF-8 with a BOM, UTF-16 LE and BE (with a BOM, and LE without one), CRLF."""
    variants = (
        ("utf-8-sig", "utf8bom"),
        ("utf-16-le", "utf16le"),
        ("utf-16-be", "utf16be"),
        ("utf-16-le-nobom", "utf16le_nobom"),
    )
    for enc, tag in variants:
        az = azure_key()
        t(
            f"azure_{tag}.env",
            "dotenv",
            f"AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=acme{tag};"
            f"AccountKey={az};EndpointSuffix=core.windows.net\n",
            az,
            enc=enc,
            crlf=True,
            kind_hint="Azure storage AccountKey",
        )
        k = openai_proj()
        t(
            f"openai_bare_{tag}.txt",
            "free text",
            f"notes\nthe key for the demo is {k} (rotate it)\n",
            k,
            enc=enc,
            crlf=True,
            kind_hint="bare OpenAI sk-proj",
        )
        k = jwt()
        t(
            f"bearer_{tag}.http",
            "http request",
            f"GET /v1/me HTTP/1.1\nHost: api.acme-corp.io\nAuthorization: Bearer {k}\n",
            k,
            enc=enc,
            crlf=True,
            kind_hint="Bearer JWT",
        )
        k = slack_hook()
        t(
            f"slack_webhook_{tag}.json",
            "json",
            f'{{\n  "alerts": "{k}"\n}}\n',
            k,
            enc=enc,
            crlf=True,
            kind_hint="Slack webhook URL",
        )
        pw = password_dollar()
        t(
            f"password_dollar_{tag}.ini",
            "ini",
            f"[db]\nhost = db.internal\npassword = {pw}\n",
            pw,
            enc=enc,
            crlf=True,
            kind_hint="password with $",
        )
        k = rs(40, B64)
        t(
            f"secretkey_{tag}.js",
            "javascript",
            f'export default {{\n  secretKey: "{k}",\n}};\n',
            k,
            enc=enc,
            crlf=True,
            kind_hint="camelCase secretKey",
        )


def big_log() -> tuple[str, int]:
    """~3 MB of ordinary service log with one fake GitHub token deep inside, and its line."""
    r = random.Random(31337)
    total, token_line = 18000, 16001
    token = "ghp_" + "".join(r.choice(ALNUM) for _ in range(36))
    paths = ["/v1/orders", "/v1/orders/{id}", "/v1/customers", "/healthz", "/v1/invoices/{id}/pdf", "/metrics"]
    lines = []
    for i in range(1, total + 1):
        ts = f"2024-12-11T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}.{r.randint(0, 999):03d}Z"
        if i == token_line:
            lines.append(
                f"{ts} INFO  git-sync  cloning https://x-access-token:{token}@github.com/acme/catalog.git "
                "into /srv/catalog (depth=1)\n"
            )
            continue
        path = r.choice(paths).replace("{id}", str(r.randint(1000, 999999)))
        lines.append(
            f"{ts} INFO  http  method={r.choice(['GET', 'GET', 'POST', 'PUT'])} path={path} "
            f"status={r.choice([200, 200, 200, 201, 204, 304, 404, 500])} "
            f"duration_ms={r.randint(1, 2500)} bytes={r.randint(0, 90000)} "
            f"trace_id={r.getrandbits(128):032x} remote=10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}\n"
        )
    return "".join(lines), token_line


ENCODERS["utf-16-le-nobom"] = lambda s: s.encode("utf-16-le")


def build_issue24_specs() -> None:
    """Formats the rules missed (issue 24): kubeconfig's client-key-data and a
    Kubernetes secret's tls.key (base64 PEM keys), Hugging Face, Vault,
    Telegram and Twilio tokens, passwords on curl, sshpass and mysql command
    lines. A credential in a file's name: ``NAMED`` below."""
    cert = "-----BEGIN CERTIFICATE-----\n" + pem_body("MIIDdzCCAl+gAwIBAgIE", 900) + "\n-----END CERTIFICATE-----\n"
    k = base64.b64encode(rsa_pem().encode()).decode()
    t(
        "kubeconfig",
        "yaml (kubeconfig)",
        "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n"
        f"    certificate-authority-data: {base64.b64encode(cert.encode()).decode()}\n"
        "    server: https://k8s.acme-corp.io:6443\n  name: prod\nusers:\n- name: admin\n  user:\n"
        f"    client-certificate-data: {base64.b64encode(cert.encode()).decode()}\n"
        f"    client-key-data: {k}\n",
        k,
        kind_hint="kubeconfig client-key-data (base64 PEM key)",
    )
    k = base64.b64encode(ec_pem().encode()).decode()
    t(
        "tls-secret.yaml",
        "yaml (Kubernetes secret)",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ingress-tls\ntype: kubernetes.io/tls\ndata:\n"
        f"  tls.crt: {base64.b64encode(cert.encode()).decode()}\n  tls.key: {k}\n",
        k,
        kind_hint="tls.key (base64 PEM key)",
    )
    k = "hf_" + rs(34, string.ascii_letters)
    t(
        "hf_login.py",
        "python",
        "from huggingface_hub import login, snapshot_download\n\n"
        f'login(token="{k}")\nsnapshot_download("acme/orders-classifier", revision="v3")\n',
        k,
        kind_hint="Hugging Face token",
    )
    k = "hf_" + rs(34, string.ascii_letters)
    t("hf.env", "dotenv", f"HF_HOME=/data/hf\nHUGGING_FACE_HUB_TOKEN={k}\n", k, kind_hint="Hugging Face token")
    k = "hvs." + rs_mostly(91)
    t(
        "vault_env.sh",
        "shell",
        "#!/bin/sh\nexport VAULT_ADDR=https://vault.acme-corp.io:8200\n"
        f"export VAULT_TOKEN={k}\nvault kv get secret/orders\n",
        k,
        kind_hint="Vault service token",
    )
    k = "hvs." + rs_mostly(91)
    t(
        "vault_login.json",
        "json (vault login -format=json)",
        '{\n  "request_id": "5f0c3d3e-9b1a-4c44-8f6e-1d2b3c4d5e6f",\n  "auth": {\n'
        f'    "client_token": "{k}",\n    "policies": ["default", "orders-read"],\n'
        '    "lease_duration": 2764800\n  }\n}\n',
        k,
        kind_hint="Vault service token",
    )
    k = f"{R.randint(10**9, 7 * 10**9)}:AA{rs_mostly(33)}"
    t(
        "telegram_bot.py",
        "python",
        "from telegram.ext import ApplicationBuilder\n\n"
        f'app = ApplicationBuilder().token("{k}").build()\napp.run_polling()\n',
        k,
        kind_hint="Telegram bot token",
    )
    k = "SK" + rs(32, HEX)
    t("twilio_api.env", "dotenv", f"TWILIO_API_KEY={k}\nTWILIO_REGION=ie1\n", k, kind_hint="Twilio API key")
    sid, tok = twilio_sid(), rs(32, HEX)
    t(
        "twilio_client.py",
        "python",
        "from twilio.rest import Client\n\n"
        f'client = Client("{sid}", "{tok}")\nclient.messages.create(to="+15558675310", body="ok")\n',
        tok,
        kind_hint="Twilio auth token beside its account id",
    )
    pw = rs(6) + R.choice("!#%") + rs(5)
    t(
        "deploy_curl.sh",
        "shell",
        f"#!/bin/sh\nset -e\ncurl -fsS -u deploy:{pw} -X POST https://ci.acme-corp.io/job/orders/build\n",
        pw,
        kind_hint="curl -u user:password",
    )
    pw = rs(12)
    t(
        "artifacts.md",
        "markdown",
        "# Uploading artifacts\n\n```sh\n"
        f"curl --user ci-bot:{pw} --upload-file dist/orders.tar.gz https://nexus.acme-corp.io/repository/raw/\n```\n",
        pw,
        kind_hint="curl --user user:password",
    )
    pw = rs(10) + R.choice("@%+") + rs(3)
    t(
        "backup.sh",
        "shell",
        f"#!/bin/sh\nsshpass -p '{pw}' ssh -o StrictHostKeyChecking=no backup@10.0.4.20 'tar czf - /srv' > srv.tgz\n",
        pw,
        kind_hint="sshpass -p password",
    )
    pw = rs(11)
    t(
        "crontab",
        "crontab",
        "# m h dom mon dow command\n"
        f"15 3 * * * mysqldump -h db.internal -u backup -p{pw} orders | gzip > /var/backups/orders.sql.gz\n",
        pw,
        kind_hint="mysqldump -ppassword",
    )
    pw = rs(9) + R.choice("!#") + rs(2)
    t(
        "Makefile",
        "makefile",
        f"DB=orders\n\nmigrate:\n\tmysql -h 127.0.0.1 -P 3306 -u root -p'{pw}' $(DB) < migrations/latest.sql\n",
        pw,
        kind_hint="mysql -p'password'",
    )


# Files whose name is the credential (an empty file, a directory): the scan reads the names in trees too.
NAMED = ("github token named file", lambda: f"{ghp()}.txt")


class Expected(NamedTuple):
    name: str  # the file's name in the corpus directory
    lines: tuple[int, ...]  # any of these lines is the right one
    encoding: str
    credential: str


def write_true(dest: Path) -> list[Expected]:
    """Write every true file into ``dest``; what each holds and where."""
    global R
    R = random.Random(0x5EC12E7)  # the same bytes on every call
    TRUE_SPECS.clear()
    build_true_specs()
    build_encoded_specs()
    build_issue24_specs()
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for s in TRUE_SPECS:
        text = s["text"].replace("\n", "\r\n") if s["crlf"] else s["text"]
        (dest / s["name"]).write_bytes(ENCODERS[s["encoding"]](text))
        lines = sorted({line_of(s["text"], s["anchor"]), *(line_of(s["text"], a) for a in s["also"])})
        out.append(Expected(s["name"], tuple(lines), s["encoding"], s["credential"]))
    text, line = big_log()
    (dest / "big_app.log").write_text(text)
    out.append(Expected("big_app.log", (line,), "utf-8", "GitHub token in a URL deep in a 3 MB log"))
    kind, make = NAMED
    name = make()
    (dest / name).write_bytes(b"")  # its blob is the empty one, which every remote has: only its name is new
    out.append(Expected(name, (0,), "-", kind))  # line 0: the file's name
    return out


def false_files() -> list[Path]:
    """The committed non-secrets: real code, docs and data that hold no credential."""
    return sorted(p for p in FALSE.iterdir() if p.is_file())


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "secrets-corpus")
    written = write_true(target)
    (target / "manifest.json").write_text(json.dumps([e._asdict() for e in written], indent=1) + "\n")
    print(f"{len(written)} true files in {target}; {len(false_files())} false files in {FALSE}")
