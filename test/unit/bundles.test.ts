/**
 * The Lambda bundles as the stack builds them (infra/bundling.ts): small enough (300 KB each),
 * carrying their own route's definitions and no other function's, without classic zod, and with
 * the lazy packages (the Stripe SDK, the QR code library, Powertools Tracer with the X-Ray SDK)
 * left out of index.mjs and reached only through a dynamic import; the construct's afterBundling
 * hook builds exactly what the benchmark builds. `npm run bench` measures the sizes and import times.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOfStage } from '../../definitions/routes';
import { catalogueCommand, esbuildOptions, functionBundling, importsPackage, LAZY_CATALOGUES, lazyPackageFile, lazyPackageJson, lazyPackageOptions, lazyPackages } from '../../infra/bundling';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The cold-start aim (CONTRACT "Room to grow", README "Deploy", `npm run bench`): 300 KB, read
 * strictly as 300,000 bytes. A function carries its own routes, not the route table (each route a
 * constant of its area's file in definitions/); a function that would pass the limit is split by
 * job instead (guest-cancel, dashboard-booking-changes, dashboard-booking-refunds).
 */
const MAX_BUNDLE_BYTES = 300_000;

const work = mkdtempSync(join(tmpdir(), 'bundles-'));
const names = readdirSync(join(ROOT, 'functions'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
const bundles: { name: string; code: string; metafile: Metafile }[] = [];

beforeAll(async () => {
  for (const name of names) {
    const outfile = join(work, name, 'index.mjs');
    const result = await build({ ...esbuildOptions(join(ROOT, 'functions', `${name}.ts`), outfile, ROOT), metafile: true, logLevel: 'silent' });
    bundles.push({ name, code: readFileSync(outfile, 'utf8'), metafile: result.metafile });
  }
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const inputsOf = (metafile: Metafile) => Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));

describe('function bundles', () => {
  it(`are at most ${MAX_BUNDLE_BYTES.toLocaleString('en-US')} bytes each`, () => {
    const sizes = Object.fromEntries(bundles.map((b) => [b.name, Buffer.byteLength(b.code)]));
    expect(Object.entries(sizes).filter(([, size]) => size > MAX_BUNDLE_BYTES)).toEqual([]);
  });

  it("carry their own routes' definitions and no other function's", () => {
    const all = routesOfStage({ sandboxPayments: true });
    // A route's definition in a bundle shows as its id, a string no code of ours uses otherwise.
    const foreign = bundles.flatMap((b) =>
      all.filter((route) => route.handler !== b.name && b.code.includes(`"${route.id}"`)).map((route) => `${b.name} carries ${route.id}`),
    );
    // The authorizer answers for every keyed route (its policy names them all): it carries the API's table.
    const authorizer = foreign.filter((f) => f.startsWith('authorizer '));
    expect(foreign.filter((f) => !f.startsWith('authorizer '))).toEqual([]);
    expect(authorizer.length).toBeGreaterThan(0);
    // And each route function does carry its own (the check above would pass for a bundle with none).
    for (const route of all) expect(bundles.find((b) => b.name === route.handler)!.code, route.id).toContain(`"${route.id}"`);
  });

  it('leave the AWS SDK to the runtime, except util-dynamodb (for the lazily loaded idempotency layer)', () => {
    const bundled = new Set(bundles.flatMap((b) => inputsOf(b.metafile).map((i) => /node_modules\/(@aws-sdk\/[^/]+)/.exec(i)?.[1]).filter(Boolean)));
    expect([...bundled]).toEqual(['@aws-sdk/util-dynamodb']);
    const loadedAtInit = bundles.flatMap((b) =>
      Object.values(b.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && i.kind === 'import-statement' && i.path.startsWith('@aws-sdk/')).map((i) => i.path)),
    );
    expect([...new Set(loadedAtInit)].sort()).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb']);
  });

  it('carry zod/mini, never classic zod', () => {
    const leaks = bundles.flatMap((b) => inputsOf(b.metafile).filter((i) => i.includes('node_modules/zod/v4/classic/')).map((i) => `${b.name}: ${i}`));
    expect(leaks).toEqual([]);
  });

  it('leave the lazy packages out and import them only dynamically', () => {
    for (const b of bundles) {
      for (const name of lazyPackages) {
        expect(inputsOf(b.metafile).filter((i) => i.includes(`node_modules/${name}/`)), b.name).toEqual([]);
        const imports = Object.values(b.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.path === name || i.path.startsWith(`${name}/`)));
        expect(imports.filter((i) => i.kind !== 'dynamic-import'), `${b.name} imports ${name} at load`).toEqual([]);
        expect(importsPackage(b.code, name), b.name).toBe(imports.length > 0);
      }
    }
    // The Stripe SDK is reached from the functions that talk to Stripe, and only from them (the
    // guest booking pages open a checkout); the QR code library from the guest booking pages' qr.svg
    // and the dashboard's authenticator app set-up (at sign-in and on the Security page).
    expect(bundles.filter((b) => importsPackage(b.code, 'stripe')).map((b) => b.name).sort()).toEqual([
      'create-payment-order',
      'dashboard-booking-changes',
      'dashboard-booking-refunds',
      'dashboard-payments',
      'guest-booking',
      'guest-cancel',
      'refund-payment-order',
      'stripe-webhook',
      // It finishes refunds nobody finished (shared/domain/payments/refunds.ts driveDueRefunds).
      'sweep-deliveries',
      'verify-payment-order',
    ]);
    expect(bundles.filter((b) => importsPackage(b.code, 'qrcode')).map((b) => b.name).sort()).toEqual(['dashboard-security', 'dashboard-session', 'guest-booking']);
    // Every function traces (shared/observability.ts), with the X-Ray SDK loaded after its first response.
    expect(bundles.filter((b) => !importsPackage(b.code, '@aws-lambda-powertools/tracer')).map((b) => b.name)).toEqual([]);
    expect(bundles.filter((b) => !b.code.includes('import("@aws-lambda-powertools/tracer/middleware")')).map((b) => b.name)).toEqual([]);
  });

  it('leave the guest catalogues out of index.mjs; the afterBundling hook builds them beside it, one loadable file a language', () => {
    expect(bundles.flatMap((b) => inputsOf(b.metafile).filter((i) => i.includes('shared/i18n/messages/')).map((i) => `${b.name}: ${i}`))).toEqual([]);
    const speaking = bundles.filter((b) => b.code.includes(`import("${LAZY_CATALOGUES}/ja")`)).map((b) => b.name);
    expect(speaking).toEqual(expect.arrayContaining(['guest-booking', 'guest-cancel', 'verify-payment-order']));
    const dir = join(work, 'hook', 'catalogues');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.mjs'), `export const handler=async()=>(await import("${LAZY_CATALOGUES}/ja")).default;`);
    execFileSync('bash', ['-c', catalogueCommand(ROOT, dir)], { cwd: ROOT });
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', 'console.log((await (await import("./index.mjs")).handler())["search.title"])'], { cwd: dir }).toString().trim();
    expect(out).toBe('お部屋を予約');
    // UTF-8, not \\u escapes.
    expect(readFileSync(join(dir, 'node_modules', LAZY_CATALOGUES, 'ja.mjs'), 'utf8')).toContain('お部屋を予約');
  }, 60_000);

  it('bundles Powertools Tracer beside a function with its middleware subpath, both loadable by Node', () => {
    const dir = join(work, 'hook', 'tracer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.mjs'), 'export const handler=async()=>Promise.all([import("@aws-lambda-powertools/tracer"),import("@aws-lambda-powertools/tracer/middleware")]);');
    for (const command of functionBundling.commandHooks.afterBundling(ROOT, dir)) execFileSync('bash', ['-c', command], { cwd: ROOT });
    const pkg = '@aws-lambda-powertools/tracer';
    expect(JSON.parse(readFileSync(lazyPackageJson(dir, pkg).path, 'utf8'))).toEqual({ type: 'module', exports: { '.': './index.mjs', './middleware': './middleware.mjs' } });
    // The X-Ray SDK is in it (with the semver shim), and a Tracer and its middleware are made from it.
    const script =
      'const [{Tracer},{captureLambdaHandler}]=await (await import("./index.mjs")).handler();' +
      'const t=new Tracer({serviceName:"s",enabled:false});const m=captureLambdaHandler(t);' +
      'console.log(typeof t.captureAWSv3Client, typeof m.before, import.meta.resolve("@aws-lambda-powertools/tracer/middleware"))';
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env: { PATH: process.env.PATH } }).toString().trim();
    expect(out).toBe(`function function file://${dir}/node_modules/${pkg}/middleware.mjs`);
    expect(readFileSync(lazyPackageFile(dir, pkg), 'utf8')).toContain('AWSXRay');
  }, 60_000);

  it("adds a lazy package to an asset with the construct's afterBundling hook, as the benchmark builds it", async () => {
    const [withImport, withoutImport, reference] = ['with', 'without', 'reference'].map((d) => join(work, 'hook', d)) as [string, string, string];
    const functions: [dir: string, code: string][] = [
      [withImport, 'export const handler=async()=>(await import("stripe")).default;'],
      [withoutImport, 'export const handler=async()=>({provider:"stripe"});'],
    ];
    for (const [dir, code] of functions) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'index.mjs'), code);
      for (const command of functionBundling.commandHooks.afterBundling(ROOT, dir)) execFileSync('bash', ['-c', command], { cwd: ROOT });
    }
    await build({ ...lazyPackageOptions('stripe', reference, ROOT), logLevel: 'silent' });

    expect(readFileSync(lazyPackageFile(withImport, 'stripe')).equals(readFileSync(lazyPackageFile(reference, 'stripe')))).toBe(true);
    expect(JSON.parse(readFileSync(lazyPackageJson(withImport, 'stripe').path, 'utf8'))).toEqual({ type: 'module', exports: './index.mjs' });
    expect(readdirSync(withoutImport)).toEqual(['index.mjs']);
    // Node resolves the function's `import('stripe')` to the bundle beside it.
    const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', 'console.log(import.meta.resolve("stripe"))'], { cwd: withImport }).toString();
    expect(resolved.trim()).toBe(`file://${lazyPackageFile(withImport, 'stripe')}`);
  }, 60_000);
});
