import { runCli } from './run-cli.ts';
import { readSecret } from './stdin-secret.ts';

/** Entry of `npm run admin -- <command>`; everything else is in run-cli.ts. */
const code = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  readSecret: (label) => readSecret(process.stdin, label, (text) => process.stderr.write(text)),
});
process.exitCode = code;
