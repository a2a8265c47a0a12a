-- How many times every session of an account was ended (a reset, a disable, an unbind, an expiry).
-- A finished sign-in's result records it; its resume is refused once it has moved on
-- (server/src/oidc/sign-in-result.ts), so a disable undone by an enable before the resume still ends
-- the sign-in. Results stored before this column carry no count and are judged as before.
ALTER TABLE "account" ADD COLUMN "sessions_ended" integer DEFAULT 0 NOT NULL;
