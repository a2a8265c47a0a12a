#!/usr/bin/env python3
"""A relying party outside Node: a small web application signing people in through Keycard with
Authlib (Debian's python3-authlib), as a team using Python would write it. The journeys in
python-client.spec.ts drive it with a real browser.

Configuration (environment): KEYCARD_ISSUER, RP_CLIENT_ID, RP_CLIENT_SECRET (absent: a public
client, authenticating with PKCE only). It listens on 127.0.0.1 at a free port and prints
"relying party listening on http://127.0.0.1:PORT" once it serves.

Pages:
  /          signed out: a sign-in link; signed in: the ID token's and the userinfo's claims
  /login     starts the authorization code flow with PKCE (S256), state and nonce
  /callback  exchanges the code, verifies the ID token (signature against the issuer's JWKS, iss,
             aud, nonce, expiry) and reads the userinfo endpoint
  /refresh   uses the refresh token, when one was issued, and shows the new token's claims
  /reuse     presents the refresh token the last refresh replaced, and shows the error answered
  /logout    RP-initiated logout at the issuer's end_session_endpoint, back to /signed-out
  POST /backchannel-logout
             OpenID Connect Back-Channel Logout 1.0: verifies the logout token and records it
  /backchannel-logouts
             the logout tokens received so far (sub and sid of each)
"""

import base64
import html
import json
import os
import secrets
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests
from authlib.common.errors import AuthlibBaseError as OAuthError
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt

ISSUER = os.environ["KEYCARD_ISSUER"]
CLIENT_ID = os.environ["RP_CLIENT_ID"]
CLIENT_SECRET = os.environ.get("RP_CLIENT_SECRET") or None
SCOPE = os.environ.get("RP_SCOPE", "openid email profile")
# offline_access is granted on a request with prompt=consent (OpenID Connect Core §11).
PROMPT = os.environ.get("RP_PROMPT") or None

DISCOVERY = requests.get(f"{ISSUER}/.well-known/openid-configuration", timeout=10).json()
if DISCOVERY["issuer"] != ISSUER:
    sys.exit(f"discovery names the issuer {DISCOVERY['issuer']}, not {ISSUER}")

# One person at a time: the journeys drive a single browser.
STATE = {}
# Logout tokens received on the back channel, oldest first; kept across sign-outs.
LOGOUTS = []
BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout"


def session(base_url, token=None):
    return OAuth2Session(
        CLIENT_ID,
        CLIENT_SECRET,
        token_endpoint_auth_method="client_secret_basic" if CLIENT_SECRET else "none",
        redirect_uri=f"{base_url}/callback",
        scope=SCOPE,
        code_challenge_method="S256",
        token=token,
    )


def verified_jwt(token, **required):
    """A JWT of this issuer for this client, its signature checked against the issuer's JWKS."""
    keys = JsonWebKey.import_key_set(requests.get(DISCOVERY["jwks_uri"], timeout=10).json())
    claims = jwt.decode(
        token,
        keys,
        claims_options={
            "iss": {"essential": True, "value": ISSUER},
            "aud": {"essential": True, "value": CLIENT_ID},
            **required,
        },
    )
    claims.validate(leeway=5)
    return dict(claims)


def verified_id_token(id_token, nonce):
    nonce_rule = {"nonce": {"essential": True, "value": nonce}} if nonce else {}
    return verified_jwt(id_token, exp={"essential": True}, **nonce_rule)


def verified_logout_token(logout_token):
    """Back-Channel Logout 1.0 §2.6: signature, iss, aud, iat, the event, sub or sid, and no nonce."""
    header = json.loads(
        base64.urlsafe_b64decode(logout_token.split(".")[0] + "==").decode()
    )
    if header.get("typ") != "logout+jwt":
        raise ValueError(f"logout token typ is {header.get('typ')!r}")
    claims = verified_jwt(logout_token, iat={"essential": True})
    if BACKCHANNEL_EVENT not in (claims.get("events") or {}):
        raise ValueError("the logout token carries no back-channel logout event")
    if "nonce" in claims:
        raise ValueError("a logout token must not carry a nonce")
    if not claims.get("sub") and not claims.get("sid"):
        raise ValueError("a logout token names a sub or a sid")
    return claims


def claims_table(title, claims):
    rows = "".join(
        f'<tr><th scope="row">{html.escape(str(key))}</th>'
        f'<td data-claim="{html.escape(str(key))}">{html.escape(json.dumps(value) if not isinstance(value, str) else value)}</td></tr>'
        for key, value in sorted(claims.items())
    )
    return f'<h2>{html.escape(title)}</h2><table aria-label="{html.escape(title)}">{rows}</table>'


class Handler(BaseHTTPRequestHandler):
    def base_url(self):
        return f"http://{self.server.server_address[0]}:{self.server.server_address[1]}"

    def page(self, body, status=200):
        content = f"<!doctype html><html lang=en><title>Python relying party</title><main>{body}</main></html>"
        data = content.encode()
        self.send_response(status)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, location):
        self.send_response(302)
        self.send_header("location", location)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/backchannel-logout":
            self.page("<h1>Not found</h1>", 404)
            return
        length = int(self.headers.get("content-length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        try:
            claims = verified_logout_token(form["logout_token"][0])
        except Exception as error:
            self.send_response(400)
            body = json.dumps({"error": "invalid_request", "error_description": repr(error)}).encode()
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        LOGOUTS.append({"sub": claims.get("sub", ""), "sid": claims.get("sid", "")})
        self.send_response(200)
        self.send_header("cache-control", "no-store")
        self.send_header("content-length", "0")
        self.end_headers()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        try:
            handler = {
                "/": self.home,
                "/login": self.login,
                "/callback": self.callback,
                "/refresh": self.refresh,
                "/reuse": self.reuse,
                "/logout": self.logout,
                "/signed-out": self.signed_out,
                "/backchannel-logouts": self.backchannel_logouts,
            }.get(url.path)
            if handler is None:
                self.page("<h1>Not found</h1>", 404)
            else:
                handler(urllib.parse.parse_qs(url.query))
        except OAuthError as error:  # a refusal by the provider, shown to the journey
            self.page(f'<h1>Refused</h1><p role="alert" data-error="{html.escape(str(error.error))}">{html.escape(repr(error))}</p>', 400)
        except Exception as error:  # shown to the journey, which fails on it
            self.page(f'<h1>Relying party error</h1><p role="alert">{html.escape(repr(error))}</p>', 500)

    def home(self, _query):
        if "id_claims" not in STATE:
            self.page('<h1>Signed out</h1><a href="/login">Sign in</a>')
            return
        self.page(
            "<h1>Signed in</h1>"
            + claims_table("ID token", STATE["id_claims"])
            + claims_table("Userinfo", STATE["userinfo"])
            + f'<p data-refreshes="{STATE.get("refreshes", 0)}">refreshes: {STATE.get("refreshes", 0)}</p>'
            + '<a href="/refresh">Refresh</a> <a href="/logout">Sign out</a>'
        )

    def login(self, _query):
        verifier = generate_token(64)
        nonce = secrets.token_urlsafe(16)
        uri, state = session(self.base_url()).create_authorization_url(
            DISCOVERY["authorization_endpoint"],
            code_verifier=verifier,
            nonce=nonce,
            **({"prompt": PROMPT} if PROMPT else {}),
        )
        STATE.clear()
        STATE.update(verifier=verifier, nonce=nonce, state=state)
        self.redirect(uri)

    def callback(self, query):
        if "error" in query:
            self.page(f'<h1>Refused</h1><p role="alert">{html.escape(query["error"][0])}</p>', 400)
            return
        if query.get("iss", [ISSUER])[0] != ISSUER:
            raise ValueError("the authorization response names another issuer (RFC 9207)")
        client = session(self.base_url())
        token = client.fetch_token(
            DISCOVERY["token_endpoint"],
            authorization_response=f"{self.base_url()}{self.path}",
            code_verifier=STATE["verifier"],
            state=STATE["state"],
        )
        STATE["token"] = token
        STATE["id_claims"] = verified_id_token(token["id_token"], STATE["nonce"])
        STATE["userinfo"] = session(self.base_url(), token).get(DISCOVERY["userinfo_endpoint"]).json()
        self.redirect("/")

    def refresh(self, _query):
        token = STATE["token"]
        if "refresh_token" not in token:
            raise ValueError("no refresh token was issued")
        renewed = session(self.base_url(), token).refresh_token(
            DISCOVERY["token_endpoint"], refresh_token=token["refresh_token"]
        )
        STATE["previous_refresh_token"] = token["refresh_token"]
        STATE["token"] = renewed
        STATE["refreshes"] = STATE.get("refreshes", 0) + 1
        if "id_token" in renewed:
            STATE["id_claims"] = verified_id_token(renewed["id_token"], None)
        STATE["userinfo"] = session(self.base_url(), renewed).get(DISCOVERY["userinfo_endpoint"]).json()
        self.redirect("/")

    def reuse(self, _query):
        try:
            session(self.base_url()).refresh_token(
                DISCOVERY["token_endpoint"], refresh_token=STATE["previous_refresh_token"]
            )
        except OAuthError as error:
            self.page(f'<h1>Refused</h1><p role="alert" data-error="{html.escape(error.error)}">{html.escape(error.error)}</p>', 400)
            return
        self.page("<h1>Accepted</h1>")

    def logout(self, _query):
        id_token = STATE["token"]["id_token"]
        STATE.clear()
        query = urllib.parse.urlencode(
            {
                "id_token_hint": id_token,
                "post_logout_redirect_uri": f"{self.base_url()}/signed-out",
                "client_id": CLIENT_ID,
            }
        )
        self.redirect(f"{DISCOVERY['end_session_endpoint']}?{query}")

    def backchannel_logouts(self, _query):
        rows = "".join(
            f'<tr><td data-field="sub">{html.escape(entry["sub"])}</td>'
            f'<td data-field="sid">{html.escape(entry["sid"])}</td></tr>'
            for entry in LOGOUTS
        )
        self.page(
            '<h1>Back-channel logouts</h1><table aria-label="Back-channel logouts">'
            f"<tr><th>sub</th><th>sid</th></tr>{rows}</table>"
        )

    def signed_out(self, _query):
        self.page('<h1>Signed out</h1><a href="/login">Sign in</a>')

    def log_message(self, format, *args):
        sys.stderr.write("rp: " + format % args + "\n")


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    host, port = server.server_address[:2]
    print(f"relying party listening on http://{host}:{port}", flush=True)
    server.serve_forever()
