/**
 * Which stack the operator CLI works on. Selecting a target puts the configuration the shared
 * modules read at import (TABLE_NAME, endpoints...) into process.env, so callers must select
 * it before importing anything from shared/domain or shared/store.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LocalStackInfo } from '../../infra/local/stack';
import type { stackOutputKeys } from '../../infra/stack';

export interface Target {
  kind: 'local' | 'stage';
  /** For messages: the stack file, or the CloudFormation stack and region. */
  source: string;
  apiUrl: string;
  tableName: string;
  callbackQueueUrl: string;
  callbackDlqUrl: string;
}

/** The target cannot be reached or read; exits 1 with this message. */
export class TargetError extends Error {
  override name = 'TargetError';
}

// The stack's OutputKeys, checked against infra/stack.ts at compile time without loading the CDK.
const OUTPUT_KEYS = {
  apiUrl: 'ApiUrl',
  tableName: 'TableName',
  callbackQueueUrl: 'CallbackQueueUrl',
  callbackDlqUrl: 'CallbackDlqUrl',
  secretBoxKeyArn: 'SecretBoxKeyArn',
} as const satisfies typeof stackOutputKeys;

const STACK_INFO_FIELDS = ['apiUrl', 'tableName', 'dynamodbEndpoint', 'sqsEndpoint', 'callbackQueueUrl', 'callbackDlqUrl', 'region', 'secretBoxKey'] as const;

export function stackName(stage: string): string {
  return `HotelIntegration-${stage}`;
}

export function localStackFile(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.OPS_STACK_FILE || join(env.LOCAL_DATA_DIR || '.local', 'stack.json'));
}

export async function selectTarget(stage: string | undefined): Promise<Target> {
  return stage === undefined ? selectLocal() : selectStage(stage);
}

async function selectLocal(): Promise<Target> {
  const file = localStackFile();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new TargetError(`no local stack found at ${file}; start it with npm start (or pass --stage NAME)`);
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
  const { functionEnvironment } = await import('../../infra/local/stack');
  Object.assign(process.env, functionEnvironment(info));
  return {
    kind: 'local',
    source: file,
    apiUrl: info.apiUrl,
    tableName: info.tableName,
    callbackQueueUrl: info.callbackQueueUrl,
    callbackDlqUrl: info.callbackDlqUrl,
  };
}

async function selectStage(stage: string): Promise<Target> {
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
  const value = (key: keyof typeof OUTPUT_KEYS) => outputs.get(OUTPUT_KEYS[key]) ?? '';
  const target: Target = {
    kind: 'stage',
    source: `${name} (${region})`,
    apiUrl: value('apiUrl'),
    tableName: value('tableName'),
    callbackQueueUrl: value('callbackQueueUrl'),
    callbackDlqUrl: value('callbackDlqUrl'),
  };
  const secretBoxKeyArn = value('secretBoxKeyArn');
  const missing = (Object.keys(OUTPUT_KEYS) as (keyof typeof OUTPUT_KEYS)[]).filter((key) => !outputs.get(OUTPUT_KEYS[key]));
  if (missing.length) {
    throw new TargetError(`the stack ${name} has no output ${missing.map((key) => OUTPUT_KEYS[key]).join(', ')}; is it fully deployed?`);
  }

  // The deployed service's own endpoints: drop emulator overrides a shell may carry.
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
  delete process.env.SQS_ENDPOINT;
  Object.assign(process.env, {
    STAGE: stage,
    TABLE_NAME: target.tableName,
    CALLBACK_QUEUE_URL: target.callbackQueueUrl,
    SECRET_BOX_KEY_SECRET_ARN: secretBoxKeyArn,
    PUBLIC_BASE_URL: target.apiUrl,
    AWS_REGION: region,
    POWERTOOLS_SERVICE_NAME: 'hotel-integration-api',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
  });
  return target;
}
