#!/usr/bin/env python3
"""An API (a resource server) and the machine client that calls it, outside Node: Authlib (Debian's
python3-authlib) as a team using Python would write them. python-api.spec.ts runs it.

The machine client asks the token endpoint for an access token for the API (client credentials,
RFC 8707 `resource`); the API then checks that token as it would on a request: an RFC 9068 JWT it
verifies itself against the issuer's published keys (signature, iss, aud, typ at+jwt, expiry), an
opaque token it introspects (RFC 7662) authenticating as its own client. A third client, given as
OTHER_CLIENT_ID, introspects an opaque token too, as a bystander that must learn nothing.

Configuration (environment): KEYCARD_ISSUER, RESOURCE, SCOPE, CLIENT_ID and CLIENT_SECRET (the
machine client), API_CLIENT_ID and API_CLIENT_SECRET (the API's introspection client),
OTHER_CLIENT_ID and OTHER_CLIENT_SECRET (optional bystander). Prints one JSON object:
{"format": "jwt" | "opaque", "claims": {...}, "bystander": {...} | null}.
"""

import json
import os
import sys

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt

ISSUER = os.environ["KEYCARD_ISSUER"]
RESOURCE = os.environ["RESOURCE"]
DISCOVERY = requests.get(f"{ISSUER}/.well-known/openid-configuration", timeout=10).json()


def client(prefix):
    return OAuth2Session(
        os.environ[f"{prefix}CLIENT_ID"],
        os.environ[f"{prefix}CLIENT_SECRET"],
        token_endpoint_auth_method="client_secret_basic",
    )


def machine_token():
    """The machine client's access token for the API (client credentials with a resource indicator)."""
    session = client("")
    token = session.fetch_token(
        DISCOVERY["token_endpoint"],
        grant_type="client_credentials",
        scope=os.environ["SCOPE"],
        resource=RESOURCE,
    )
    return token["access_token"]


def verified_jwt(token):
    """What the API accepts of an RFC 9068 access token, verified without calling the issuer."""
    keys = JsonWebKey.import_key_set(requests.get(DISCOVERY["jwks_uri"], timeout=10).json())
    claims = jwt.decode(
        token,
        keys,
        claims_options={
            "iss": {"essential": True, "value": ISSUER},
            "aud": {"essential": True, "value": RESOURCE},
            "exp": {"essential": True},
        },
    )
    claims.validate()
    if claims.header.get("typ") != "at+jwt":
        sys.exit(f"the access token's typ is {claims.header.get('typ')}, not at+jwt")
    return {**dict(claims), "alg": claims.header["alg"]}


def introspected(prefix, token):
    """The introspection endpoint's answer about `token` to the client of `prefix` (RFC 7662)."""
    response = client(prefix).introspect_token(DISCOVERY["introspection_endpoint"], token=token)
    response.raise_for_status()
    return response.json()


def main():
    token = machine_token()
    if token.count(".") == 2:
        result = {"format": "jwt", "claims": verified_jwt(token)}
    else:
        claims = introspected("API_", token)
        if claims.get("active") is not True or claims.get("aud") != RESOURCE:
            sys.exit(f"the API was not told about its token: {json.dumps(claims)}")
        result = {"format": "opaque", "claims": claims}
    # Only stored (opaque) tokens can be introspected at all; a JWT is refused to everybody there.
    asks = os.environ.get("OTHER_CLIENT_ID") and result["format"] == "opaque"
    bystander = introspected("OTHER_", token) if asks else None
    print(json.dumps({**result, "bystander": bystander}))


if __name__ == "__main__":
    main()
