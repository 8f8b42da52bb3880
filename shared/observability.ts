/**
 * Powertools instances shared by every function. Powertools reads its own POWERTOOLS_*
 * variables (service name, metrics namespace, log level), which the stack sets on every function.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

const defaults = { serviceName: 'hotel-integration-api' };

export const logger = new Logger(defaults);
export const tracer = new Tracer(defaults);
export const metrics = new Metrics({ ...defaults, namespace: 'HotelIntegration' });
