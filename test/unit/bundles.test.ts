/**
 * The Lambda bundles as the stack builds them (infra/bundling.ts): small enough (350 KB each),
 * without classic zod, and with the lazy packages (the Stripe SDK, the QR code library) left out of index.mjs and
 * reached only through a dynamic import; the construct's afterBundling hook builds exactly what
 * the benchmark builds. `npm run bench` measures the sizes and import times.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, functionBundling, importsPackage, lazyPackageFile, lazyPackageJson, lazyPackageOptions, lazyPackages } from '../../infra/bundling';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The cold-start aim (README "Deploy", `npm run bench`). A page function carries its own routes,
 * not the route table (definitions/page-routes.ts); a function that would pass the limit is split
 * by job instead (guest-cancel, dashboard-booking-changes, dashboard-booking-refunds).
 */
const MAX_BUNDLE_BYTES = 350_000;

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
        const imports = Object.values(b.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.path === name));
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
  });

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
