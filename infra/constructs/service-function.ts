import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { functionBundling } from '../bundling';
import type { Route } from '../routes';
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
      runtime: Runtime.NODEJS_22_X,
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
        NODE_OPTIONS: '--enable-source-maps',
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

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is the runtime the project targets and tests on (bundling target node22); moving to nodejs24.x is a deliberate upgrade, not a drift fix.',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing (PutTraceSegments, PutTelemetryRecords) supports no resource-level permissions.',
    });
  }

  /** Grants exactly the table access a route declares (read or read/write, including its indexes). */
  grantTableAccess(table: ServiceTable, access: Route['access']['table']): void {
    if (access === 'read') table.grantReadData(this);
    else table.grantReadWriteData(this);
    Validations.of(this.role!).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${table.indexArnsPattern}]`,
      reason: 'Queries use the GSIs of this one table; the wildcard covers only its indexes.',
    });
  }
}
