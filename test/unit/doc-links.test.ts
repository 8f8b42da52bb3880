/**
 * The docs point only at what the repository holds: every relative link (and image) of README.md
 * and docs/*.md reaches a file here, and its `#anchor` a heading of that file; every `*.md` file
 * they name exists (or is output the build writes to an ignored folder), so none names the team's
 * contract file, which the repository does not contain (the rules are docs/behaviour.md's); every
 * `docs/behaviour.md "Section"` a source comment or document cites is a heading of it; and the
 * README's contents list every section.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const DOCS = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(ROOT, 'docs', name))];
const read = (file: string) => readFileSync(file, 'utf8');
/** The contract file of the team, which is not in the repository (spelt so that this file does not mention it). */
const CONTRACT_FILE = ['CONTRACT', 'md'].join('.');
/** Where source comments and tests live. */
const SOURCE_DIRS = ['shared', 'functions', 'infra', 'bin', 'test'];
const named = (file: string) => relative(ROOT, file);

/** Folders .gitignore names: what the build and the tests write there is not in the repository. */
const IGNORED = read(join(ROOT, '.gitignore'))
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.endsWith('/') && !line.startsWith('#'));

/** The text outside fenced code blocks (a link in an example is not a link). */
export const prose = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugOf(match[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** Every link target of the prose: markdown links and images, HTML `href` and `src`. */
export function linksOf(markdown: string): string[] {
  const text = prose(markdown);
  return [
    ...[...text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
  ];
}

/** Where a relative link leads from `file`, and whether it is missing; undefined for an external link. */
export function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  const [path = '', anchor] = target.split('#', 2);
  const into = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  if (!existsSync(into)) return `${target}: no file ${named(into)}`;
  if (anchor !== undefined && into.endsWith('.md') && !anchorsOf(read(into)).has(decodeURIComponent(anchor))) {
    return `${target}: no heading with the anchor #${anchor} in ${named(into)}`;
  }
  return undefined;
}

/** Markdown files a text names (`docs/behaviour.md`, `BENCHMARKS.md`) that are nowhere: not beside it, not from the root, not written to an ignored folder. */
export function missingFiles(file: string, text: string): string[] {
  const names = [...text.matchAll(/(?<![\w/.-])((?:\.{0,2}[\w-]*\/)*[\w.-]+\.md)\b/g)].map((m) => m[1]!);
  return [...new Set(names)].filter((name) => {
    if (IGNORED.some((folder) => name.startsWith(folder))) return false;
    return !existsSync(resolve(dirname(file), name)) && !existsSync(resolve(ROOT, name));
  });
}

/** `.ts` and `.tsx` files under a folder (no node_modules). */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.parentPath.includes('node_modules'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The sections a text cites as `docs/behaviour.md "Section"`, also when a comment wraps the name onto its next line. */
export function citationsOf(text: string): string[] {
  const joined = text.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
  return [...joined.matchAll(/docs\/behaviour\.md,? \(?"([^"]+)"((?:, "[^"]+")*)/g)].flatMap((m) => [m[1]!, ...[...m[2]!.matchAll(/"([^"]+)"/g)].map((n) => n[1]!)]);
}

/**
 * Repository paths a text names in code spans (`definitions/routes.ts`, `shared/receiver-kit/`) that do
 * not exist; URLs (`/api/...`), variables (`LOCAL_DATA_DIR/...`) and ignored output are not paths.
 */
export function missingPaths(file: string, text: string): string[] {
  const spans = [...text.matchAll(/`([A-Za-z0-9_.-]+\/[A-Za-z0-9_./-]*)`/g)].map((m) => m[1]!);
  // A folder counts when it names a path from the root (`shared/receiver-kit/`), not a lone name (`cognito/`, inside LOCAL_DATA_DIR).
  const paths = spans.filter((span) => /^[a-z.]/.test(span) && (/\.(ts|tsx|js|mjs|json|md|yml|yaml|sh)$/.test(span) || (span.endsWith('/') && span.slice(0, -1).includes('/'))));
  return [...new Set(paths)].filter((path) => {
    if (IGNORED.some((folder) => path.startsWith(folder))) return false;
    return !existsSync(resolve(ROOT, path)) && !existsSync(resolve(dirname(file), path));
  });
}

describe('README.md and docs/*.md', () => {
  it('finds the documents it checks', () => {
    expect(DOCS.map(named)).toEqual(expect.arrayContaining(['README.md', 'docs/behaviour.md', 'docs/data-model.md', 'docs/operations.md']));
  });

  it.each(DOCS.map((file) => [named(file), file]))('%s: every relative link and image reaches a file of the repository, and its anchor a heading', (_name, file) => {
    const broken = linksOf(read(file))
      .map((target) => brokenLink(file, target))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  it.each(DOCS.map((file) => [named(file), file]))('%s: names no file the repository lacks, and never the contract file', (_name, file) => {
    const text = read(file);
    expect(missingFiles(file, text)).toEqual([]);
    expect(missingPaths(file, text)).toEqual([]);
    expect(text.toLowerCase()).not.toContain(CONTRACT_FILE.toLowerCase());
  });

  it('docs/behaviour.md has every section the sources and documents cite', () => {
    const sections = new Set([...prose(read(join(ROOT, 'docs/behaviour.md'))).matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.trim()));
    // This file is left out: its own examples cite sections that are not there.
    const files = [...DOCS, ...SOURCE_DIRS.flatMap((dir) => sourcesUnder(join(ROOT, dir)))].filter((file) => file !== __filename);
    const unknown = files.flatMap((file) => citationsOf(read(file)).filter((section) => !sections.has(section)).map((section) => `${named(file)}: "${section}"`));
    expect(unknown).toEqual([]);
    // The sources do cite it (a scan that finds nothing proves nothing).
    expect(files.filter((file) => citationsOf(read(file)).length > 0).length).toBeGreaterThan(20);
  });

  it("README's contents come before the quick start and list every section", () => {
    const readme = read(join(ROOT, 'README.md'));
    const contentsAt = readme.indexOf('\n## Contents\n');
    const quickStartAt = readme.indexOf('\n## Quick start\n');
    expect(contentsAt).toBeGreaterThan(-1);
    expect(quickStartAt).toBeGreaterThan(contentsAt);
    // The quick start is the first section after the contents: a newcomer reads it first.
    expect(readme.slice(contentsAt + 1).match(/^## (.+)$/gm)?.[1]).toBe('## Quick start');
    const contents = readme.slice(contentsAt, quickStartAt);
    const listed = new Set([...contents.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]));
    const sections = [...prose(readme).matchAll(/^## (.+)$/gm)].map((m) => slugOf(m[1]!)).filter((slug) => slug !== 'contents');
    expect(sections.filter((slug) => !listed.has(slug))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('make anchors as GitHub does', () => {
    expect(slugOf('booking.confirmed callbacks')).toBe('bookingconfirmed-callbacks');
    expect(slugOf("The hotel's own time, and pages people can rely on")).toBe('the-hotels-own-time-and-pages-people-can-rely-on');
    expect(slugOf('Property sync (Area A)')).toBe('property-sync-area-a');
    expect(slugOf('Full size: `npm run stress`')).toBe('full-size-npm-run-stress');
  });

  it('catch a missing file, a missing anchor and a missing markdown name, and let links in code blocks be', () => {
    const readme = join(ROOT, 'README.md');
    expect(brokenLink(readme, 'docs/nowhere.md')).toMatch(/no file docs\/nowhere\.md/);
    expect(brokenLink(readme, 'docs/behaviour.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink(readme, 'docs/behaviour.md#payment-orders')).toBeUndefined();
    expect(brokenLink(readme, 'https://example.com/x.md')).toBeUndefined();
    expect(missingFiles(readme, `see ${CONTRACT_FILE} and LOCAL-EMULATORS.md, BENCHMARKS.md, \`.stress/summary.md\``)).toEqual([CONTRACT_FILE, 'LOCAL-EMULATORS.md']);
    expect(missingPaths(readme, 'in `definitions/routes.ts`, `shared/receiver-kit/`, `shared/gone.ts`, `/api/v1/openapi.json`, `LOCAL_DATA_DIR/stack.json`, `.stress/summary.md`')).toEqual(['shared/gone.ts']);
    expect(citationsOf(' * rules (docs/behaviour.md "Payment safety in\n * deployed stages", "Errors").')).toEqual(['Payment safety in deployed stages', 'Errors']);
    expect(linksOf('```\n[a](gone.md)\n```\n[b](here.md) <img src="p.png">')).toEqual(['here.md', 'p.png']);
  });
});
