import type { FlagSpec } from './cli-args.ts';

/** `--email E`: the account a user:* command acts on. */
export const EMAIL_FLAG: FlagSpec = {
  name: 'email',
  kind: 'value',
  required: true,
  placeholder: 'E',
  description: "the account's e-mail address",
};
