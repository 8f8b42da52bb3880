/**
 * `npm start`: the whole service on this machine (see docs/behaviour.md "Local stack and operator CLI").
 * Env: PORT (3000), DYNAMODB_PORT (8000), SQS_PORT (9324), COGNITO_PORT (9229), SES_PORT (8005),
 * SANDBOX_PORT (3001, the sandbox checkout's own origin), LOCAL_DATA_DIR (.local), LOG_LEVEL.
 * The first start fills in a demo hotel (infra/local/demo-hotel.ts) unless `npm start -- --empty`
 * or DEMO_HOTEL=empty.
 */
// The SDK's Node 20 support notice is noise here; the lockfile pins versions that run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PortInUseError } from '../infra/local/ports';
import { STOP_DRAIN_MS } from '../infra/local/serve';
import { startLocalStack } from '../infra/local/stack';

/** A port from the variable that sets it, or its default. */
function portFrom(variable: string, fallback: number): number {
  const raw = process.env[variable];
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`${variable} must be a port number (0 to 65535), not "${raw}"`);
    process.exit(1);
  }
  return value;
}

const ports = {
  PORT: portFrom('PORT', 3000),
  DYNAMODB_PORT: portFrom('DYNAMODB_PORT', 8000),
  SQS_PORT: portFrom('SQS_PORT', 9324),
  COGNITO_PORT: portFrom('COGNITO_PORT', 9229),
  SES_PORT: portFrom('SES_PORT', 8005),
  SANDBOX_PORT: portFrom('SANDBOX_PORT', 3001),
};
const dataDir = resolve(process.env.LOCAL_DATA_DIR ?? '.local');
/** Whether a first start leaves the demo hotel empty: `npm start -- --empty`, or DEMO_HOTEL=empty. */
const emptyHotel = process.argv.slice(2).includes('--empty') || process.env.DEMO_HOTEL === 'empty';

const DEMO_OPERATOR_EMAIL = 'admin@demo-hotel.example';

async function ensureDemoClient(apiUrl: string) {
  const demoFile = join(dataDir, 'demo.json');
  // Functions read their configuration at import: load them after the stack set it.
  const { createClientAccount, issueApiKey } = await import('../shared/domain/clients');
  if (existsSync(demoFile)) {
    const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as { client_id: string; operator_email?: string };
    console.log(`demo client: ${demo.client_id} (keys were shown on first start; make new ones with`);
    console.log(`  npm run ops -- keys create --client ${demo.client_id} --kind sync)`);
    if (!demo.operator_email) {
      // A data folder from before the dashboard: its demo client gets its operator now.
      demo.operator_email = await createDemoOperator(demo.client_id, apiUrl);
      writeFileSync(demoFile, `${JSON.stringify(demo, null, 2)}\n`);
    } else {
      console.log(`dashboard: ${apiUrl}/dashboard (sign in as ${demo.operator_email}; the password was shown on first start)`);
    }
    return;
  }
  const client = await createClientAccount({ name: 'Demo Hotel', plan: 'premium' });
  const sync = await issueApiKey({ clientId: client.client_id, kind: 'sync', name: 'demo sync key' });
  const payment = await issueApiKey({ clientId: client.client_id, kind: 'payment', name: 'demo payment key' });
  const operatorEmail = await createDemoOperator(client.client_id, apiUrl);
  writeFileSync(
    demoFile,
    `${JSON.stringify({ client_id: client.client_id, sync_key_id: sync.key_id, payment_key_id: payment.key_id, operator_email: operatorEmail }, null, 2)}\n`,
  );
  console.log(`demo client: ${client.client_id}`);
  console.log(`demo sync key (shown once):    ${sync.key}`);
  console.log(`demo payment key (shown once): ${payment.key}`);
  console.log('try:');
  console.log(`  curl -s "${apiUrl}/api/v1/property-sync/availability?check_in_date=2027-01-10&check_out_date=2027-01-12&guests=2" -H "Authorization: Bearer ${sync.key}"`);
  console.log(
    `  curl -s -X PUT ${apiUrl}/api/v1/property-sync/rooms -H "Authorization: Bearer ${sync.key}" -H "Content-Type: application/json" -H "Idempotency-Key: demo-1" -d '{"external_source":"demo-pms","rooms":[{"external_room_id":"R101","room_number":"101","room_type":"double","price":120,"max_occupancy":2,"is_active":true}]}'`,
  );
  console.log(
    `  curl -s -X POST ${apiUrl}/api/v1/payments/payment-orders -H "Authorization: Bearer ${payment.key}" -H "Content-Type: application/json" -d '{"reference":"DEMO-1","amount_minor":24000,"currency":"USD","customer":{"name":"Ada Lovelace","email":"ada@example.com"},"success_url":"https://partner.example/paid","cancel_url":"https://partner.example/cancelled"}'`,
  );
  console.log('  (open the checkout_url it answers in a browser to pay on the sandbox)');
  if (emptyHotel) {
    console.log('demo hotel: left empty (--empty or DEMO_HOTEL=empty): no room types, rooms or bookings until you sync them');
    return;
  }
  const { seedDemoHotel } = await import('../infra/local/demo-hotel');
  const { configureEndpoint } = await import('../shared/domain/callbacks/deliveries');
  const hotel = await seedDemoHotel({ clientId: client.client_id, apiUrl, syncKey: sync.key, paymentKey: payment.key, configureEndpoint });
  console.log(
    `demo hotel: ${hotel.roomTypes} room types, ${hotel.rooms} rooms, ${hotel.bookings} bookings over the coming four weeks and ${hotel.deliveries} deliveries, ` +
      'made through the API as a PMS and a partner website make them (npm start -- --empty, on a new LOCAL_DATA_DIR, starts without them)',
  );
  console.log(`  guest booking page: ${apiUrl}/book/${client.client_id}`);
}

/** The demo client's `admin` operator, with a permanent password shown this once. */
async function createDemoOperator(clientId: string, apiUrl: string): Promise<string> {
  const { createOperator, generatePassword } = await import('../shared/domain/operators');
  const password = generatePassword();
  await createOperator({ clientId, email: DEMO_OPERATOR_EMAIL, role: 'admin', password });
  console.log(`dashboard: ${apiUrl}/dashboard`);
  console.log(`  sign in as ${DEMO_OPERATOR_EMAIL} with password ${password} (shown once; an admin of the demo client)`);
  return DEMO_OPERATOR_EMAIL;
}

/** Set once Ctrl-C (SIGINT) or SIGTERM came: the stack is on its way down. */
let stopping = false;

async function main() {
  const starting = startLocalStack({
    port: ports.PORT,
    dynamodbPort: ports.DYNAMODB_PORT,
    sqsPort: ports.SQS_PORT,
    cognitoPort: ports.COGNITO_PORT,
    sesPort: ports.SES_PORT,
    sandboxPort: ports.SANDBOX_PORT,
    dataDir,
    onRequest: (line) => console.log(line),
  });
  // Listening from the start: the emulators ignore Ctrl-C (infra/local/emulators.ts), so a stack
  // stopped while it starts stops them itself once they are up.
  const shutdown = async (signal: string) => {
    if (stopping) {
      console.log(`${signal}: already stopping (requests in flight get up to ${STOP_DRAIN_MS / 1000} s)`);
      return;
    }
    stopping = true;
    console.log(`${signal}: stopping: no new requests; those in flight, the callback sender and the sweeper finish first`);
    try {
      await (await starting).stop();
    } catch (error) {
      console.error('the local stack did not stop cleanly:', (error as Error).message);
      process.exit(1);
    }
    console.log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const stack = await starting;
  if (stopping) return;
  try {
    await ensureDemoClient(stack.info.apiUrl);
  } catch (error) {
    // A start that fails stops every child it started (startLocalStack does until it returns).
    if (!stopping) await stack.stop().catch((stopError: Error) => console.error('the local stack did not stop cleanly:', stopError.message));
    throw error;
  }
  if (stopping) return;
  console.log(`stack: ${join(dataDir, 'stack.json')}`);
  if (stack.info.sandboxUrl) console.log(`sandbox checkout: ${stack.info.sandboxUrl} (its own origin, as a provider's: checkout_url is ${stack.info.sandboxUrl}/checkout/…)`);
  if (stack.info.sesEndpoint) console.log(`e-mails to guests: ${stack.info.sesEndpoint} (the SES emulator's inbox; GET ${stack.info.sesEndpoint}/store lists them)`);
  console.log(`ready: ${stack.info.apiUrl}`);
}

main().catch((error: NodeJS.ErrnoException & { port?: number }) => {
  // Stopped while starting: the shutdown ends the process.
  if (stopping) return;
  if (error instanceof PortInUseError) {
    console.error(error.message);
  } else if (error.code === 'EADDRINUSE') {
    // Taken between the probe and the listen: named as the probe would.
    const variable = Object.entries(ports).find(([, value]) => value === error.port)?.[0];
    console.error(variable ? new PortInUseError(variable, error.port!).message : `a port is already in use (${error.message}): set ${Object.keys(ports).join(', ')} to free ports`);
  } else {
    console.error('local stack failed to start:', error);
  }
  process.exit(1);
});
