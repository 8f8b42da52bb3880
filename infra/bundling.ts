/**
 * How every function is bundled, in one place: the CDK construct passes these to NodejsFunction
 * (which runs esbuild), and the cold-start benchmark runs esbuild with the same settings through
 * `esbuildOptions`, which mirrors the arguments aws-cdk-lib's bundler builds from them.
 * No CDK import here, so the benchmark can load it cheaply.
 */
import { LANGUAGES } from '../shared/i18n/languages';

/**
 * Packages a function loads only on some requests, or only after its first response, with
 * `await import()`: the Stripe SDK, for Stripe clients only; the QR code library, for the guest
 * booking page's qr.svg only; Powertools Tracer, which loads the X-Ray SDK (with semver and
 * cls-hooked, about 87 KB minified) and patches http and https, after an instance's first
 * response (shared/observability.ts). In a one-file bundle esbuild would inline them into
 * index.mjs (no code splitting): evaluated late, but read and parsed at every cold start. So they
 * stay out of index.mjs (external) and are bundled on their own, minified, into the function's
 * asset as node_modules/<name>/index.mjs (and one file per subpath the functions import, see
 * lazySubpaths), where Node resolves the import when it runs. Only a function whose index.mjs
 * imports one gets it (the afterBundling hook checks). intl-messageformat (with its ICU parser,
 * about 40 KB minified): for the guest pages and e-mails, on their first message.
 */
export const lazyPackages = ['stripe', 'qrcode', '@aws-lambda-powertools/tracer', 'intl-messageformat'] as const;
export type LazyPackage = (typeof lazyPackages)[number];

/**
 * Subpaths of a lazy package the functions import as well: esbuild leaves every subpath of an
 * external package external, so each gets its own file beside index.mjs and an entry in the
 * package.json's exports.
 */
export const lazySubpaths: Readonly<Partial<Record<LazyPackage, readonly string[]>>> = { '@aws-lambda-powertools/tracer': ['middleware'] };

/** The package.json beside a lazy package's files: `import(name)` and `import(name/subpath)` resolve to them. */
function lazyPackageJsonContent(name: LazyPackage): string {
  const subpaths = lazySubpaths[name] ?? [];
  const exports = subpaths.length ? { '.': './index.mjs', ...Object.fromEntries(subpaths.map((sub) => [`./${sub}`, `./${sub}.mjs`])) } : './index.mjs';
  return JSON.stringify({ type: 'module', exports });
}

/**
 * Packages every bundle gets a smaller module for (esbuild `--alias`; the path is resolved from
 * the project root, where both the construct and the benchmark run esbuild). `semver`: the X-Ray
 * SDK that Powertools Tracer loads (aws-xray-sdk-core, and cls-hooked under it) calls only
 * `semver.gte`; the whole package (two copies, 29 KB minified: every range, class and regular
 * expression of it) was evaluated at every cold start.
 */
/**
 * The guest catalogues (shared/i18n/messages/<language>.ts), imported as `guest-messages/<language>`
 * (tsconfig.json's paths, vitest.config.ts's alias): seven languages of text, about 20 KB each,
 * would push a guest function's index.mjs past 300 KB, and a request needs one. Like a lazy
 * package they are left out of index.mjs and built beside it, one file a language, in
 * node_modules/guest-messages/, where Node resolves the import.
 */
export const LAZY_CATALOGUES = 'guest-messages';
const CATALOGUE_DIR = './shared/i18n/messages';

export const moduleAliases = { semver: './infra/shims/semver.cjs' } as const;

export const functionBundling = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: 'node24',
  /** The project is ESM (OutputFormat.ESM); the bundle is index.mjs. */
  format: 'esm',
  mainFields: ['module', 'main'],
  // The project is ESM; CommonJS dependencies bundled into it still need `require`.
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  /**
   * The SDK's clients are provided by the Lambda runtime; lazy packages are added to the asset on
   * their own. @aws-sdk/util-dynamodb (12 KB) is bundled: only Powertools' idempotency layer
   * imports it, on the first request with an Idempotency-Key, and as an external its import would
   * be hoisted to the top of index.mjs and loaded by every keyed function at init.
   */
  externalModules: ['@aws-sdk/client-*', '@aws-sdk/lib-*', ...lazyPackages, LAZY_CATALOGUES],
  /** aws-cdk-lib passes an `--alias` key as `--alias:<value>`: here `--alias:semver=./infra/shims/semver.cjs`. */
  esbuildArgs: { '--alias': `semver=${moduleAliases.semver}` },
  commandHooks: {
    beforeBundling: (): string[] => [],
    beforeInstall: (): string[] => [],
    afterBundling: (inputDir: string, outputDir: string): string[] => [...lazyPackages.map((name) => lazyPackageCommand(name, inputDir, outputDir)), catalogueCommand(inputDir, outputDir)],
  },
} as const;

/**
 * esbuild's options for one entry, as aws-cdk-lib's local bundling passes them on the command
 * line (`esbuild --bundle <entry> --target --platform=node --format --outfile --minify
 * --sourcemap --sources-content=false --external --banner:js --main-fields --alias`, run in the project root).
 */
export function esbuildOptions(entry: string, outfile: string, projectRoot: string) {
  return {
    entryPoints: [entry],
    bundle: true,
    target: functionBundling.target,
    platform: 'node' as const,
    format: functionBundling.format,
    outfile,
    minify: functionBundling.minify,
    sourcemap: functionBundling.sourceMap,
    sourcesContent: functionBundling.sourcesContent,
    external: [...functionBundling.externalModules],
    banner: { js: functionBundling.banner },
    mainFields: [...functionBundling.mainFields],
    alias: { ...moduleAliases },
    absWorkingDir: projectRoot,
  };
}

/** Whether a function's bundle imports package `name` (esbuild keeps an external import as written, minified). */
export function importsPackage(bundle: string, name: string): boolean {
  return new RegExp(`(?:import\\(|from|import)"${name}"`).test(bundle);
}

/** Where a lazy package's main bundle goes in a function's output directory. */
export const lazyPackageFile = (outputDir: string, name: string) => `${outputDir}/node_modules/${name}/index.mjs`;

/** esbuild's entry points of a lazy package: its main module as index, and each subpath under its own name. */
function lazyEntryPoints(name: LazyPackage): Record<string, string> {
  return { index: name, ...Object.fromEntries((lazySubpaths[name] ?? []).map((sub) => [sub, `${name}/${sub}`])) };
}

/** What every bundle built beside a function shares: the function's target and format, ES modules as .mjs, minified, no source map. */
function besideFunction(outdir: string, projectRoot: string) {
  return { bundle: true, target: functionBundling.target, platform: 'node' as const, format: functionBundling.format, outdir, outExtension: { '.js': '.mjs' }, minify: true, absWorkingDir: projectRoot };
}

/** esbuild's options for a lazy package's own bundle: the function's target, format, banner and aliases, minified, no source map. */
export function lazyPackageOptions(name: LazyPackage, outputDir: string, projectRoot: string) {
  return {
    entryPoints: lazyEntryPoints(name),
    ...besideFunction(`${outputDir}/node_modules/${name}`, projectRoot),
    banner: { js: functionBundling.banner },
    mainFields: [...functionBundling.mainFields],
    alias: { ...moduleAliases },
  };
}

/** The package.json beside a lazy package's bundle, so that `import(name)` resolves to it. */
export const lazyPackageJson = (outputDir: string, name: LazyPackage) => ({ path: `${outputDir}/node_modules/${name}/package.json`, content: lazyPackageJsonContent(name) });

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The esbuild CLI arguments of a lazy build's options (lazyPackageOptions, catalogueOptions). */
function cliArgs(options: {
  entryPoints: Record<string, string>;
  target: string;
  platform: string;
  format: string;
  outdir: string;
  banner?: { js: string };
  mainFields?: readonly string[];
  alias?: Record<string, string>;
  charset?: string;
}): string[] {
  return [
    '--bundle',
    ...Object.entries(options.entryPoints).map(([out, entry]) => `${out}=${entry}`),
    `--target=${options.target}`,
    `--platform=${options.platform}`,
    `--format=${options.format}`,
    `--outdir=${options.outdir}`,
    '--out-extension:.js=.mjs',
    '--minify',
    ...(options.banner ? [`--banner:js=${options.banner.js}`] : []),
    ...(options.mainFields ? [`--main-fields=${options.mainFields.join(',')}`] : []),
    ...Object.entries(options.alias ?? {}).map(([from, to]) => `--alias:${from}=${to}`),
    ...(options.charset ? [`--charset=${options.charset}`] : []),
    '--log-level=warning',
  ];
}

/** The bash command: if index.mjs matches `imported` (an ERE), build with `args` in the project root and write the package.json. */
function buildIfImported(imported: string, args: string[], json: { path: string; content: string }, inputDir: string, outputDir: string): string {
  return [
    `if grep -qE ${shellQuote(imported)} ${shellQuote(`${outputDir}/index.mjs`)}; then`,
    `cd ${shellQuote(inputDir)} && ${shellQuote(`${inputDir}/node_modules/.bin/esbuild`)} ${args.map(shellQuote).join(' ')}`,
    `&& printf '%s' ${shellQuote(json.content)} > ${shellQuote(json.path)}; fi`,
  ].join(' ');
}

/**
 * The afterBundling command (bash, run in the project root) that builds `lazyPackageOptions` with
 * the pinned esbuild CLI and writes its package.json, if the function's index.mjs imports `name`.
 */
export function lazyPackageCommand(name: LazyPackage, inputDir: string, outputDir: string): string {
  const options = lazyPackageOptions(name, outputDir, inputDir);
  return buildIfImported(`(import\\(|from|import)"${name}"`, cliArgs(options), lazyPackageJson(outputDir, name), inputDir, outputDir);
}

/** esbuild's options for the catalogues built beside a function (LAZY_CATALOGUES): one file per language. */
export function catalogueOptions(outputDir: string, projectRoot: string) {
  return {
    entryPoints: Object.fromEntries(LANGUAGES.map((language) => [language, `${CATALOGUE_DIR}/${language}.ts`])),
    ...besideFunction(`${outputDir}/node_modules/${LAZY_CATALOGUES}`, projectRoot),
    // Japanese as UTF-8, not \u escapes (a third of the size).
    charset: 'utf8' as const,
  };
}

/** The package.json beside the catalogues: `import('guest-messages/fr')` resolves to fr.mjs. */
export const catalogueJson = (outputDir: string) => ({
  path: `${outputDir}/node_modules/${LAZY_CATALOGUES}/package.json`,
  content: JSON.stringify({ type: 'module', exports: Object.fromEntries(LANGUAGES.map((language) => [`./${language}`, `./${language}.mjs`])) }),
});

/** The afterBundling command that builds the catalogues beside a function whose index.mjs imports them. */
export function catalogueCommand(inputDir: string, outputDir: string): string {
  return buildIfImported(`import\\("${LAZY_CATALOGUES}/`, cliArgs(catalogueOptions(outputDir, inputDir)), catalogueJson(outputDir), inputDir, outputDir);
}
