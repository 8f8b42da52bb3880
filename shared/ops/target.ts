/**
 * Which stack the operator CLI works on, and the environment the shared modules need to work on
 * it (TABLE_NAME, endpoints, keys...), as a function of that stack would see it. The caller
 * (bin/ops.ts) applies that environment before importing anything from shared/domain or
 * shared/store; nothing here reads or writes process.env.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LocalStackInfo } from '../../definitions/local-stack';
import { stackOutputKeys } from '../../definitions/stack-outputs';

export interface Target {
  kind: 'local' | 'stage';
  /** For messages: the stack file, or the CloudFormation stack and region. */
  source: string;
  apiUrl: string;
  tableName: string;
  callbackQueueUrl: string;
  callbackDlqUrl: string;
  /** Variables to set (a value) or remove (undefined) before the shared modules load. */
  environment: Record<string, string | undefined>;
}

/** The caller's environment: where to find the local stack, and the log level to run at. */
export type CallerEnvironment = Readonly<Record<string, string | undefined>>;

/** The target cannot be reached or read; exits 1 with this message. */
export class TargetError extends Error {
  override name = 'TargetError';
}

const STACK_INFO_FIELDS = ['apiUrl', 'tableName', 'dynamodbEndpoint', 'sqsEndpoint', 'callbackQueueUrl', 'callbackDlqUrl', 'region', 'secretsKeyFile', 'orderReferenceKeyFile'] as const;

export function stackName(stage: string): string {
  return `HotelIntegration-${stage}`;
}

export function localStackFile(env: CallerEnvironment): string {
  return resolve(env.OPS_STACK_FILE || join(env.LOCAL_DATA_DIR || '.local', 'stack.json'));
}

export async function selectTarget(stage: string | undefined, env: CallerEnvironment): Promise<Target> {
  return stage === undefined ? selectLocal(env) : selectStage(stage, env);
}

async function selectLocal(env: CallerEnvironment): Promise<Target> {
  const file = localStackFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new TargetError(
        `no local stack found at ${file}; start it with npm start, or point at a running one with LOCAL_DATA_DIR (the folder npm start used) or OPS_STACK_FILE (its stack.json), or pass --stage NAME`,
      );
    }
    throw new TargetError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let info: LocalStackInfo;
  try {
    info = JSON.parse(text) as LocalStackInfo;
  } catch {
    throw new TargetError(`${file} is not valid JSON; restart the local stack with npm start`);
  }
  const missing = STACK_INFO_FIELDS.filter((field) => typeof info?.[field] !== 'string' || !info[field]);
  if (missing.length) throw new TargetError(`${file} lacks ${missing.join(', ')}; restart the local stack with npm start`);

  // Loaded only here: the local stack module brings in the emulator and gateway code.
  const { functionEnvironment } = await import('../../definitions/local-stack');
  return {
    environment: functionEnvironment(info),
    kind: 'local',
    source: file,
    apiUrl: info.apiUrl,
    tableName: info.tableName,
    callbackQueueUrl: info.callbackQueueUrl,
    callbackDlqUrl: info.callbackDlqUrl,
  };
}

async function selectStage(stage: string, env: CallerEnvironment): Promise<Target> {
  const name = stackName(stage);
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  // Region and credentials: the caller's default chain (AWS_PROFILE, AWS_REGION, SSO...).
  const cloudFormation = new CloudFormationClient({});
  let region: string;
  let outputs: Map<string, string>;
  try {
    region = await cloudFormation.config.region();
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: name }));
    outputs = new Map((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']));
  } catch (error) {
    const message = (error as Error).message;
    if (/Region is missing/i.test(message)) {
      throw new TargetError('no AWS region configured; set AWS_REGION or use a profile with a region (AWS_PROFILE)');
    }
    if ((error as Error).name === 'ValidationError' && /does not exist/.test(message)) {
      throw new TargetError(`no stack ${name} in this AWS account and region; deploy it with npx cdk deploy -c stage=${stage}`);
    }
    throw new TargetError(`cannot read the stack ${name}: ${message}`);
  } finally {
    cloudFormation.destroy();
  }
  const value = (key: keyof typeof stackOutputKeys) => outputs.get(stackOutputKeys[key]) ?? '';
  const missing = (Object.keys(stackOutputKeys) as (keyof typeof stackOutputKeys)[]).filter((key) => !outputs.get(stackOutputKeys[key]));
  if (missing.length) {
    throw new TargetError(`the stack ${name} has no output ${missing.map((key) => stackOutputKeys[key]).join(', ')}; is it fully deployed?`);
  }
  return {
    kind: 'stage',
    source: `${name} (${region})`,
    apiUrl: value('apiUrl'),
    tableName: value('tableName'),
    callbackQueueUrl: value('callbackQueueUrl'),
    callbackDlqUrl: value('callbackDlqUrl'),
    environment: {
      // The deployed service's own endpoints: drop emulator overrides a shell may carry.
      AWS_ENDPOINT_URL_DYNAMODB: undefined,
      SQS_ENDPOINT: undefined,
      SECRETS_KEY_FILE: undefined,
      STAGE: stage,
      TABLE_NAME: value('tableName'),
      CALLBACK_QUEUE_URL: value('callbackQueueUrl'),
      // Saving a callback or webhook secret seals it: the operator needs kms:Encrypt on this key.
      SECRETS_KMS_KEY_ARN: value('secretsKeyArn'),
      PUBLIC_BASE_URL: value('apiUrl'),
      // Clients' usage keys go into these usage plans (clients create, clients set-plan).
      USAGE_PLAN_IDS: `standard=${value('usagePlanStandardId')},premium=${value('usagePlanPremiumId')}`,
      // `providers set --provider sandbox` is refused where the stage has no sandbox.
      SANDBOX_PAYMENTS: value('sandboxPayments') === 'true' ? 'true' : 'false',
      // Operators (operators create|list|remove): the caller needs cognito-idp:Admin* on this pool.
      USER_POOL_ID: value('userPoolId'),
      USER_POOL_CLIENT_ID: value('userPoolClientId'),
      COGNITO_ISSUER: undefined,
      COGNITO_ENDPOINT: undefined,
      AWS_REGION: region,
      POWERTOOLS_SERVICE_NAME: 'hotel-integration-api',
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
      POWERTOOLS_LOG_LEVEL: env.LOG_LEVEL ?? 'WARN',
    },
  };
}
