/**
 * `npm start` as a user runs it: a child process that starts both emulators, prints the demo
 * keys and `ready:`, keeps data across restarts in LOCAL_DATA_DIR, and stops every child on
 * SIGTERM.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { freeStackPorts, killAllStackProcesses, portOpen, type StackPorts, startStackProcess, stopStackProcess } from '../support/local-stack-process';

const dataDir = mkdtempSync(join(tmpdir(), 'local-stack-'));

const start = (ports: StackPorts) => startStackProcess(ports, dataDir);
const stop = stopStackProcess;

afterAll(() => {
  killAllStackProcesses();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('serves the API with demo keys, persists data and shuts every child down', async () => {
    const ports = await freeStackPorts();
    const first = await start(ports);
    expect(first.url).toBe(`http://127.0.0.1:${ports.api}`);
    const syncKey = /demo sync key \(shown once\):\s+(svc_sync_\S+)/.exec(first.output())![1]!;
    const paymentKey = /demo payment key \(shown once\):\s+(svc_pay_\S+)/.exec(first.output())![1]!;
    expect(first.output()).toContain('curl');
    expect(first.output()).toContain(`dashboard: ${first.url}/dashboard`);
    const [, operatorEmail, operatorPassword] = /sign in as (\S+) with password (\S+)/.exec(first.output())!;

    const stackFile = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8'));
    expect(stackFile).toMatchObject({
      apiUrl: first.url,
      dynamodbEndpoint: `http://127.0.0.1:${ports.dynamodb}`,
      cognitoEndpoint: `http://127.0.0.1:${ports.cognito}`,
      cognitoIssuer: `http://127.0.0.1:${ports.cognito}/${stackFile.userPoolId}`,
      sandboxUrl: `http://127.0.0.1:${ports.sandbox}`,
      sesEndpoint: `http://127.0.0.1:${ports.ses}`,
      senderEmail: 'bookings@hotel-integration.example',
    });
    expect((await fetch(`${stackFile.sesEndpoint}/store`)).status).toBe(200);
    // cognito-local keeps its data (users, their passwords) under the data folder.
    expect(existsSync(join(dataDir, 'cognito', '.cognito', 'db', `${stackFile.userPoolId}.json`))).toBe(true);
    const signIn = () =>
      new CognitoIdentityProviderClient({ endpoint: stackFile.cognitoEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }).send(
        new InitiateAuthCommand({ ClientId: stackFile.userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: operatorEmail!, PASSWORD: operatorPassword! } }),
      );
    expect((await signIn()).AuthenticationResult?.IdToken).toBeTruthy();
    // The signing secrets' key file: its path in stack.json, the key itself only in the file (mode 600).
    const keyFile = join(dataDir, 'secrets.key');
    expect(stackFile.secretsKeyFile).toBe(keyFile);
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'stack.json'), 'utf8')).not.toContain(readFileSync(keyFile, 'utf8').trim());

    const availability = `${first.url}/api/v1/property-sync/availability?check_in_date=2027-05-01&check_out_date=2027-05-02&guests=1`;
    const put = await fetch(`${first.url}/api/v1/property-sync/rooms`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${syncKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '1', room_type: 'single', price: 50, max_occupancy: 1 }] }),
    });
    expect(put.status).toBe(200);
    expect((await fetch(availability)).status).toBe(401);
    expect((await fetch(availability, { headers: { Authorization: `Bearer ${paymentKey}` } })).status).toBe(403);
    // The gateway prints one line per request.
    expect(first.output()).toMatch(/PUT \/api\/v1\/property-sync\/rooms 200 \d+ms/);

    // The sandbox checkout is on SANDBOX_PORT, an origin of its own; its form sends the guest back to the API.
    expect(first.output()).toContain(`sandbox checkout: http://127.0.0.1:${ports.sandbox}`);
    const order = await fetch(`${first.url}/api/v1/payments/payment-orders`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${paymentKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reference: 'LOCAL-1', amount_minor: 5000, currency: 'USD', customer: { email: 'ada@example.com' }, success_url: 'https://partner.example/ok', cancel_url: 'https://partner.example/no' }),
    });
    const { checkout_url: checkoutUrl, order_reference: orderReference } = (await order.json()) as { checkout_url: string; order_reference: string };
    expect(checkoutUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${ports.sandbox}/checkout/sbx_`));
    expect((await fetch(checkoutUrl)).status).toBe(200);
    const paid = await fetch(checkoutUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(new RegExp(`^${first.url}/api/v1/payments/payment-orders/verify\\?reference=${orderReference}&return=[A-Za-z0-9_-]{43}$`));

    expect(await stop(first.child)).toBe(0);
    expect(await portOpen(ports.api)).toBe(false);
    expect(await portOpen(ports.dynamodb)).toBe(false);
    expect(await portOpen(ports.sqs)).toBe(false);
    expect(await portOpen(ports.cognito)).toBe(false);
    expect(await portOpen(ports.sandbox)).toBe(false);
    expect(await portOpen(ports.ses)).toBe(false);

    // Second start: same data, no new demo keys, the old key still works.
    const second = await start(ports);
    expect(second.output()).not.toContain('shown once');
    const response = await fetch(availability, { headers: { Authorization: `Bearer ${syncKey}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { available_rooms: { room_number: string }[] };
    expect(body.available_rooms.map((r) => r.room_number)).toEqual(['1']);
    // The demo operator survives the restart.
    expect((await signIn()).AuthenticationResult?.IdToken).toBeTruthy();
    expect(await stop(second.child)).toBe(0);
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(true);
  }, 90_000);
});
