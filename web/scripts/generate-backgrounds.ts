/**
 * Renders every background of SPEC §7 (each name of BACKGROUND_NAMES in both themes) into
 * web/public/images/background/{theme}/1920/{name}.jpg, plus its smaller forms (AVIF and WebP, and a
 * phone cut, background-art/variants.ts), which the service sends in its place to browsers that take
 * them. Run by `npm run build` before Vite; the output folder is git-ignored. Files are skipped when
 * the stamp says this exact generator, with this exact sharp/libvips, already wrote them, so rebuilds
 * cost nothing.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_NAMES, type BackgroundName, backgroundPath, THEMES, type Theme } from '@keycard/contract';
import sharp from 'sharp';
import { renderBackground } from './background-art/render.ts';
import { renderVariants, VARIANT_FORMS, variantPath } from './background-art/variants.ts';

const scriptsDir = path.dirname(fileURLToPath(import.meta.url));
const artDir = path.join(scriptsDir, 'background-art');
const publicDir = path.resolve(scriptsDir, '../public');
/** Outside public/ so Vite does not publish it with the images. */
const stampFile = path.resolve(scriptsDir, '../../node_modules/.cache/keycard/backgrounds-stamp.json');

interface Stamp {
  /** Hash of the generator's own source and the image library versions. */
  readonly generator: string;
  /** Byte size of each written file, keyed by its public path, to notice files changed by hand. */
  readonly files: Record<string, number>;
}

interface Job {
  readonly theme: Theme;
  readonly name: BackgroundName;
  /** The SPEC's JPEG first, then every smaller form. */
  readonly publicPaths: readonly string[];
}

const fileOf = (publicPath: string): string => path.join(publicDir, publicPath);

async function generatorHash(): Promise<string> {
  const sources = (await readdir(artDir))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort()
    .map((file) => path.join(artDir, file));
  const hash = createHash('sha256');
  for (const file of [fileURLToPath(import.meta.url), ...sources]) {
    hash.update(path.basename(file)).update(await readFile(file));
  }
  // The same source renders different bytes under another libvips or mozjpeg.
  hash.update(JSON.stringify(sharp.versions));
  return hash.digest('hex');
}

async function readStamp(): Promise<Stamp | undefined> {
  try {
    return JSON.parse(await readFile(stampFile, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

async function isUpToDate(job: Job, stamp: Stamp | undefined, generator: string): Promise<boolean> {
  if (stamp?.generator !== generator) {
    return false;
  }
  for (const publicPath of job.publicPaths) {
    const size = await stat(fileOf(publicPath)).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined || size !== stamp.files[publicPath]) {
      return false;
    }
  }
  return true;
}

/** Writes beside the target and renames, so an interrupted run never leaves a truncated image. */
async function writeAtomically(file: string, data: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}

async function main(): Promise<void> {
  const started = performance.now();
  const generator = await generatorHash();
  const stamp = await readStamp();
  const jobs: Job[] = THEMES.flatMap((theme) =>
    BACKGROUND_NAMES.map((name) => ({
      theme,
      name,
      publicPaths: [
        backgroundPath(theme, name),
        ...VARIANT_FORMS.map(({ width, extension }) => variantPath(theme, name, width, extension)),
      ],
    })),
  );
  const files: Record<string, number> = {};
  const pending: Job[] = [];
  for (const job of jobs) {
    if (await isUpToDate(job, stamp, generator)) {
      for (const publicPath of job.publicPaths) files[publicPath] = stamp?.files[publicPath] ?? 0;
    } else {
      pending.push(job);
    }
  }
  if (pending.length === 0) {
    console.log(`backgrounds: ${jobs.length}/${jobs.length} up to date`);
    return;
  }
  let done = jobs.length - pending.length;
  const worker = async (): Promise<void> => {
    for (let job = pending.shift(); job; job = pending.shift()) {
      const { jpeg, quality } = await renderBackground(job.name, job.theme);
      const variants = await renderVariants(jpeg);
      const outputs = [
        { publicPath: backgroundPath(job.theme, job.name), data: jpeg },
        ...variants.map(({ width, extension, data }) => ({
          publicPath: variantPath(job.theme, job.name, width, extension),
          data,
        })),
      ];
      for (const { publicPath, data } of outputs) {
        await writeAtomically(fileOf(publicPath), data);
        files[publicPath] = data.byteLength;
      }
      done += 1;
      const kb = (data: Buffer) => `${(data.byteLength / 1000).toFixed(1)} KB`;
      const forms = variants.map(({ width, extension, data }) => `${width} ${extension} ${kb(data)}`);
      console.log(
        `backgrounds: ${done}/${jobs.length} ${job.theme}/${job.name} ${kb(jpeg)} q${quality}; ${forms.join(', ')}`,
      );
    }
  };
  // One image per core: each pipeline is mostly single-threaded libvips work plus a JS grain pass.
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
  await mkdir(path.dirname(stampFile), { recursive: true });
  await writeFile(stampFile, `${JSON.stringify({ generator, files } satisfies Stamp, null, 2)}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`backgrounds: ${jobs.length}/${jobs.length} ready in ${seconds} s`);
}

try {
  await main();
} catch (error) {
  console.error('backgrounds: failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
