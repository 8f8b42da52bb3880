/**
 * The operator commands, in the order the help lists them. Each group's file declares its
 * entries: words, flags and positionals (parsed and checked by cli.ts), a run() that calls a
 * use case and returns the --json object, and a render() of that object for people. Use cases
 * are imported inside run(): the target's environment is in force only by then (bin/ops.ts
 * applies it).
 */
import type { Command } from './cli';
import { bookingCommands } from './commands/bookings';
import { clientCommands } from './commands/clients';
import { deliveryCommands } from './commands/deliveries';
import { endpointCommands } from './commands/endpoints';
import { keyCommands } from './commands/keys';
import { operatorCommands } from './commands/operators';
import { orderCommands } from './commands/orders';
import { providerCommands } from './commands/providers';
import { rateCommands } from './commands/rates';
import { reportCommands } from './commands/reports';
import { roomCommands } from './commands/rooms';

export const commands: readonly Command[] = [
  ...clientCommands,
  ...operatorCommands,
  ...keyCommands,
  ...roomCommands,
  ...rateCommands,
  ...endpointCommands,
  ...bookingCommands,
  ...orderCommands,
  ...deliveryCommands,
  ...providerCommands,
  ...reportCommands,
];
