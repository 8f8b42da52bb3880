import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { functionBundling } from '../bundling';
import { isWriteAction, type TableAccess } from '../../definitions/table-access';
import { TRACER_ENVIRONMENT } from '../../definitions/service-defaults';
import type { ServiceTable } from './table';

/** The repository root: handler entries, package-lock.json and tsconfig.json live there. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceFunctionProps {
  /** Handler file under functions/, without extension. */
  handler: string;
  description: string;
  stage: string;
  table: ServiceTable;
  logRetention: RetentionDays;
  /** @default 10 seconds (API Gateway gives up after 29 s anyway) */
  timeout?: Duration;
  /** Added to the common environment. */
  environment?: Record<string, string>;
}

/**
 * Every Lambda of the service: same runtime, architecture, tracing, bundling and Powertools
 * settings. Each function gets its own log group and its own role, which may write to that log
 * group only (instead of AWSLambdaBasicExecutionRole, which allows any log group).
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    // Created beside the function because they are needed by super().
    const logGroup = new LogGroup(scope, `${id}LogGroup`, {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs functions/${props.handler}.ts`,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      entry: path.join(repoRoot, 'functions', `${props.handler}.ts`),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      environment: {
        POWERTOOLS_SERVICE_NAME: 'hotel-integration-api',
        POWERTOOLS_METRICS_NAMESPACE: 'HotelIntegration',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        // X-Ray keeps no handler response (Set-Cookie with session tokens, one-time secrets,
        // Location headers with guest tokens) and no error message or stack, only the error flag
        // (https://docs.powertools.aws.dev/lambda/typescript/latest/features/tracer/#environment-variables).
        // shared/observability.ts says the same in code: both, so neither alone can turn it back on.
        ...TRACER_ENVIRONMENT,
        // No NODE_OPTIONS=--enable-source-maps: with it Node reads and parses the function's
        // source map (about 400 KB) while loading index.mjs, at every cold start ("It can impact
        // startup time. Node.js parses source-maps on loading the JavaScript sources",
        // https://github.com/nodejs/node/issues/38817; and it slows every Error.stack access,
        // https://nodejs.org/api/cli.html#--enable-source-maps), measured at 0.06x to 0.1x of a
        // bare handler's cold import (BENCHMARKS.md). The map still ships beside index.mjs
        // (functionBundling.sourceMap); `npm run map-stack` maps a logged stack trace with it
        // (docs/operations.md "Reading a stack trace").
        STAGE: props.stage,
        TABLE_NAME: props.table.tableName,
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        ...functionBundling,
        format: OutputFormat.ESM,
        mainFields: [...functionBundling.mainFields],
        externalModules: [...functionBundling.externalModules],
      },
    });

    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing (PutTraceSegments, PutTelemetryRecords) supports no resource-level permissions.',
    });
  }

  /**
   * Grants exactly the declared table access (definitions/table-access.ts): its reads on the table,
   * Query on each index it names, its writes only under its `writes` partition-key prefixes and
   * DeleteItem only under its `deletes` ones. Not table.grant*Data, which add Scan, DeleteItem and
   * BatchWriteItem on every item and index. The table's AWS managed key needs no kms grant.
   */
  grantTableAccess(table: ServiceTable, access: TableAccess): void {
    const reads = access.actions.filter((action) => !isWriteAction(action));
    const writes = access.actions.filter(isWriteAction);
    if (reads.length) {
      this.addToRolePolicy(new PolicyStatement({ actions: reads.map((a) => `dynamodb:${a}`), resources: [table.tableArn] }));
    }
    if (writes.length) {
      if (!access.writes?.length) throw new Error(`${this.node.id} declares ${writes.join(', ')} but no partition-key prefixes to write under (writes)`);
      this.addToRolePolicy(
        new PolicyStatement({ actions: writes.map((a) => `dynamodb:${a}`), resources: [table.tableArn], conditions: leadingKeysUnder(access.writes) }),
      );
    }
    if (access.queries?.length) {
      this.addToRolePolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: access.queries.map((index) => `${table.tableArn}/index/${index}`) }),
      );
    }
    if (access.deletes?.length) {
      this.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DeleteItem'], resources: [table.tableArn], conditions: leadingKeysUnder(access.deletes) }));
    }
  }
}

/**
 * Only items whose partition key starts with one of `prefixes`: dynamodb:LeadingKeys ("Using IAM
 * policy conditions for fine-grained access control",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html).
 * ForAllValues: every partition key of the request must match (a BatchWriteItem names several).
 */
function leadingKeysUnder(prefixes: readonly string[]): Record<string, unknown> {
  return { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...prefixes].sort().map((prefix) => `${prefix}*`) } };
}
